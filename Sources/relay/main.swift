import Foundation
import RelayCLI

// Before any thread starts: every thread then blocks these signals, and one listener reads them.
ProcessSignals.prepare()
exit(await RelayCommand.main(linking: []))
