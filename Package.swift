// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "yarn",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "YarnCore", targets: ["YarnCore"]),
    .executable(name: "yarn", targets: ["YarnCLI"]),
  ],
  targets: [
    // libzip, found through pkg-config (Debian: libzip-dev, Homebrew: libzip).
    .systemLibrary(
      name: "CLibzip",
      pkgConfig: "libzip",
      providers: [.apt(["libzip-dev"]), .brew(["libzip"])]
    ),
    // SQLite 3 (Debian: libsqlite3-dev; macOS: the SDK's libsqlite3).
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // OpenSSL's libcrypto, for SHA-256 on Linux (CryptoKit is used on Apple systems).
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    .target(
      name: "YarnCore",
      dependencies: [
        "CLibzip",
        "CSQLite",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]
    ),
    .executableTarget(
      name: "YarnCLI",
      dependencies: ["YarnCore"]
    ),
    .testTarget(
      name: "YarnCoreTests",
      dependencies: ["YarnCore"]
    ),
    .testTarget(
      name: "YarnCLITests",
      dependencies: ["YarnCLI", "YarnCore"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
