import Foundation
import RelayCLI
import TrailKit

exit(await RelayCommand.main(linking: [TrailKit.self]))
