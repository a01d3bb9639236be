// swift-tools-version:6.0
import PackageDescription

// Three layers, each a target, so that a dependency pointing up does not compile:
//   YarnModel  values: the model, amounts and units, conversions, the remaining estimate,
//              calendar days, time parsing and JSON conventions (Foundation only: no SQLite,
//              no libzip, no file I/O);
//   YarnStore  the library on disk: SQLite and the attachment files (and SHA-256);
//   YarnCore   CSV, time tracking and reports, backups and the export (libzip); it
//              re-exports the other two, so an app writes one `import YarnCore`.
let strict: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

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
    .target(name: "YarnModel", swiftSettings: strict),
    .target(
      name: "YarnStore",
      dependencies: [
        "YarnModel", "CSQLite",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strict
    ),
    .target(
      name: "YarnCore",
      dependencies: ["YarnModel", "YarnStore", "CLibzip"],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "YarnCLI",
      dependencies: ["YarnCore"],
      swiftSettings: strict
    ),
    // README's "Using YarnCore from Swift", as a program that builds with the package
    // (ExampleTests checks that the README shows this file and that it runs).
    .executableTarget(
      name: "stash-report",
      dependencies: ["YarnCore"],
      path: "Examples/StashReport"
    ),
    .testTarget(
      name: "YarnCoreTests",
      dependencies: ["YarnCore", "YarnModel", "YarnStore"]
    ),
    .testTarget(
      name: "YarnCLITests",
      dependencies: ["YarnCLI", "stash-report", "YarnCore", "YarnModel", "YarnStore"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
