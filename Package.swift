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
    // libzip (Debian: libzip-dev for its header, libzip4 at run time), loaded with dlopen on
    // first use: `Sources/CLibzip/loader.c`.
    .target(name: "CLibzip"),
    // SQLite 3 (Debian: libsqlite3-dev; macOS: the SDK's libsqlite3), linked.
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // OpenSSL's libcrypto, for SHA-256 on Linux (CryptoKit is used on Apple systems), loaded
    // with dlopen on first use: `Sources/CCrypto/loader.c` (Debian: libssl-dev for the header).
    .target(name: "CCrypto"),
    .target(
      name: "YarnCore",
      dependencies: [
        "CLibzip",
        "CSQLite",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    .executableTarget(
      name: "YarnCLI",
      dependencies: ["YarnCore"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
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
