import LibraryKit
import RelayKit

await PackageHost.serve(LibraryKit.self)
