import Foundation
import RelayKit
import RelayEngine

/// What a program a step starts (`run-shell-script`'s shell, a package's program) may touch
/// (Docs/Security.md, "Programs"): on Linux with Landlock, the system's programs, libraries and
/// settings to read, and beyond them only what the run may touch now (`AccessGate.confinement`:
/// its grants, what is free, what was allowed at a prompt); new sockets only with a `net` grant;
/// io_uring never. Its environment is small and fixed: Relay's own variables (a token given to
/// Relay, an agent's socket) never reach it. The desktop helpers (a clipboard, notifications),
/// programs Relay chose with arguments Relay chose, get the display's variables instead of
/// confinement, since they must reach the desktop's sockets.
enum ProgramSandbox {
    /// Folders every program may read: the system's programs, libraries and settings. Not
    /// `/proc`: another process's environment is there.
    static let systemFolders = ["/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc"]

    /// Relay's variables a program gets: what it needs to run and to read and write text.
    static let passedVariables = ["PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM"]

    /// What a desktop helper gets besides: where the display and the session's bus are.
    static let desktopVariables = [
        "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
        "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "DESKTOP_SESSION", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "BROWSER",
    ]

    /// A program's whole environment: `passedVariables` from Relay's (and `desktopVariables` for a
    /// desktop helper), with its temporary files in the run's scratch folder.
    static func environment(
        scratch: String, reachesDesktop: Bool, from relay: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        let names = passedVariables + (reachesDesktop ? desktopVariables : [])
        var environment = relay.filter { names.contains($0.key) }
        environment["PATH"] = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        environment["TMPDIR"] = scratch
        return environment
    }

    /// What a program at `executable` may touch: the system's folders, the folders on `PATH` (the
    /// programs the user chose to have at hand) and its own folder to read, and what the run may
    /// touch now. A version manager's shim (pyenv, rbenv, asdf) reads its tool's folder too,
    /// which the run must then grant.
    static func confinement(
        executable: String, granted: Confinement, path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) -> Confinement {
        let searched = (path ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let readable = systemFolders + searched + [(executable as NSString).deletingLastPathComponent]
        return Confinement(read: Set(readable.map(ResolvedPath.resolve))).union(granted).existing
    }
}
