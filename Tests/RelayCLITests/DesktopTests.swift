import Foundation
import RelayKit
import Testing

/// The clipboard and notifications, through stand-ins for xclip and notify-send on a PATH of the
/// test's own, so that what Relay starts, with what, can be seen.
@Suite("Clipboard and notifications")
struct DesktopTests {
    /// A folder with executable scripts named `programs`, and the folder they write to.
    private func fakePrograms(_ programs: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-desktop-\(UUID().uuidString)")
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, script) in programs {
            let path = bin.appendingPathComponent(name).path
            try "#!/bin/sh\n\(script)\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        return folder
    }

    private func workflow(_ steps: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("w.yaml").path
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("set-clipboard then get-clipboard go through xclip, asked for by name")
    func clipboard() async throws {
        let folder = try fakePrograms([
            "xclip": "case \"$*\" in *-in*) cat > \"$(dirname \"$0\")/../clip\" ;; *) cat \"$(dirname \"$0\")/../clip\" ;; esac"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["PATH": folder.appendingPathComponent("bin").path + ":/usr/bin:/bin", "WAYLAND_DISPLAY": ""]
        let file = try workflow("- text: \"copied ✓\"\n- set-clipboard\n- get-clipboard", in: folder)
        let refused = try await RelayProcess.running(["run", file], in: folder, environment: environment)
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("--allow-run"), "\(refused.standardError)")
        let ran = try await RelayProcess.running(["run", file, "--allow-run"], in: folder, environment: environment)
        #expect(ran.status == 0, "\(ran.standardError)")
        #expect(ran.standardOutput == "copied ✓\n")
    }

    @Test("the program a step starts by itself is named in the report and asked for before the first step")
    func programAskedUpFront() async throws {
        let folder = try fakePrograms(["xclip": "cat > /dev/null"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["PATH": folder.appendingPathComponent("bin").path + ":/usr/bin:/bin", "WAYLAND_DISPLAY": ""]
        let file = try workflow("- text: a\n- save-file: { to: marker.txt, overwrite: true }\n- set-clipboard", in: folder)
        let report = try await RelayProcess.running(["check", "--permissions", file], in: folder, environment: environment)
        #expect(report.standardOutput.contains("run:\n  xclip  (step 3 set-clipboard"), "\(report.standardOutput)")
        let refused = try await RelayProcess.running(["run", file, "--allow-write=\(folder.path)"], in: folder, environment: environment)
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("needs to start xclip"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("marker.txt").path), "a step ran before the question")
    }

    @Test("without a clipboard program the error says what to install")
    func noClipboard() async throws {
        let folder = try fakePrograms([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try workflow("- get-clipboard", in: folder)
        let ran = try await RelayProcess.running(
            ["run", file, "--allow-run"], in: folder, environment: ["PATH": folder.appendingPathComponent("bin").path])
        #expect(ran.status == 1)
        #expect(ran.standardError.contains("install wl-clipboard (Wayland) or xclip or xsel (X11)"), "\(ran.standardError)")
    }

    @Test("notify: notify-send gets the title and text as they are; without it, standard error does")
    func notify() async throws {
        let folder = try fakePrograms(["notify-send": "printf '%s|' \"$@\" > \"$(dirname \"$0\")/../shown\""])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try workflow("- text: kept\n- notify: { title: \"Back\\\"up; $(x)\", body: \"-20 files\" }", in: folder)
        let bin = folder.appendingPathComponent("bin").path
        let ran = try await RelayProcess.running(["run", file, "--allow-run"], in: folder, environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(ran.status == 0, "\(ran.standardError)")
        #expect(ran.standardOutput == "kept\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("shown"), encoding: .utf8) == "--app-name=Relay|--|Back\"up; $(x)|-20 files|")
        try FileManager.default.removeItem(atPath: bin + "/notify-send")
        let printed = try await RelayProcess.running(["run", file], in: folder, environment: ["PATH": bin])
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.standardError.contains("Back\"up; $(x): -20 files"), "\(printed.standardError)")
        // A notification printed cannot fake a question: its escapes are shown, not obeyed.
        let faking = try workflow("- notify: { title: x, body: \"\\e[2K\\rAllow it? [y]es \\e[8m\" }", in: folder)
        let shown = try await RelayProcess.running(["run", faking], in: folder, environment: ["PATH": bin])
        #expect(shown.status == 0 && !shown.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D }, "\(shown.standardError.debugDescription)")
        #expect(shown.standardError.contains("x: \u{241B}[2K\u{240D}Allow it? [y]es \u{241B}[8m"), "\(shown.standardError)")
    }
}
