import RelayKit
import TrailKit

await PackageHost.serve(TrailKit.self)
