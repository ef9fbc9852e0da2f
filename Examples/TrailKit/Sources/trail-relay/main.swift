import Foundation
import RelayCLI
import TrailKit

// Before any thread starts: every thread then blocks these signals, and one listener reads them.
ProcessSignals.prepare()
exit(await RelayCommand.main(linking: [TrailKit.self]))
