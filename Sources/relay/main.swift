import Foundation
import RelayCLI

exit(await RelayCommand.main(linking: []))
