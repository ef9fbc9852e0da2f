import Foundation
import Testing
import RelayKit

/// Packages loaded from paths (Docs/Packages.md): TrailKit through `--package` and `packages:`, transfer
/// selection across the host boundary, and packages that crash, hang or do not build.
@Suite("Packages loaded from a path", .serialized)
struct PackageTests {
    /// One cache for the whole run, so each package is built once.
    static let cache = FileManager.default.temporaryDirectory.appendingPathComponent("relay-package-tests-\(getpid())")
    static let trailKit = RelayProcess.root.appendingPathComponent("Examples/TrailKit").path

    let folder: URL
    let data: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-packages-\(UUID().uuidString)")
        data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    func workflow(_ name: String, _ text: String) throws -> String {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs relay with TrailKit loaded, in this test's folders. Awaited, not blocking: a package
    /// build takes most of a minute, and a blocked thread would stall the tests of other suites.
    func relay(
        _ arguments: [String], package: String? = PackageTests.trailKit, environment: [String: String] = [:], in current: URL? = nil
    ) async throws -> RelayProcess.Result {
        var environment = environment
        environment["XDG_CACHE_HOME"] = environment["XDG_CACHE_HOME"] ?? Self.cache.path
        environment["XDG_DATA_HOME"] = data.path
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment["RELAY_NOTES"] = folder.appendingPathComponent("Notes").path
        return try await RelayProcess.running(arguments + (package.map { ["--package", $0] } ?? []), in: current ?? folder, environment: environment)
    }

    /// The data folder of the package at `path` in this test's data folder.
    func dataFolder(of path: String) -> String {
        PackageDataFolder.path(forPackageAt: ResolvedPath.resolve(path), environment: ["XDG_DATA_HOME": data.path])
    }

    @Test("TrailKit through --package: its query, its URL-representable intent, its names with and without the prefix")
    func throughFlag() async throws {
        let find = try workflow(
            "find.yaml",
            "steps:\n  - find: trails\n    where: {distance: {greater-than: 2}, region: {is: Rockies}}\n    sort: {by: distance, order: descending}\n    limit: 1\n")
        let found = try await relay(["run", find])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput == "Summit Scramble\n")

        let open = try workflow("open.yaml", "steps:\n  - trails.open-trail: ridge\n  - open-trail: canyon\n")
        let opened = try await relay(["run", open, "--dry-run"])
        #expect(opened.status == 0, "\(opened.standardError)")
        #expect(opened.standardError == "open https://trails.example.com/trail/1\nopen https://trails.example.com/trail/5\n")

        // Trails are indexed: search asks the host for their index records.
        let searched = try await relay(["run", try workflow("search.yaml", "steps:\n  - search: rockies\n    type: trail\n")])
        #expect(searched.standardOutput == "Summit Scramble\nCanyon Rim Trail\n", "\(searched.standardError)")

        let described = try await relay(["describe", "trails.suggest-trails"])
        #expect(described.standardOutput.contains("Suggest Trails"))
        #expect(described.standardOutput.contains("featured-collection"))
        let listed = try await relay(["actions", "trails", "--json"])
        #expect(listed.standardOutput.contains("\"Featured Collection\""), "\(listed.standardOutput)")
        // The schema an editor validates with has the package's actions, by both names.
        let schema = try await relay(["schema"])
        #expect(schema.standardOutput.contains("\"trails.suggest-trails\"") && schema.standardOutput.contains("\"suggest-trails\""), "\(schema.standardError)")
        #expect(try await relay(["schema"], package: nil).standardOutput.contains("suggest-trails") == false)
    }

    @Test("TrailKit through packages: in the workflow, relative to it; a missing package is a located error")
    func throughWorkflow() async throws {
        let path = try workflow(
            "pass.yaml", "packages: [\(Self.trailKit)]\nsteps:\n  - buy-day-pass: summit\n")
        // Not trusted yet: nothing of it is built, by check or by run, and both exit 4 saying how to trust it.
        let untouched = folder.appendingPathComponent("untrusted-cache")
        let refused = try await relay(["check", path], package: nil, environment: ["XDG_CACHE_HOME": untouched.path])
        #expect(refused.status == 4)
        #expect(refused.standardError.contains("pass.yaml:1:12: error: the package '\(Self.trailKit)' is not trusted"), "\(refused.standardError)")
        #expect(refused.standardError.contains("relay package trust \(Self.trailKit)"))
        // check takes no --allow-packages, so its advice does not name it.
        #expect(!refused.standardError.contains("--allow-packages"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: untouched.appendingPathComponent("relay/builds").path))
        #expect(try await relay(["run", path, "--yes"], package: nil, environment: ["XDG_CACHE_HOME": untouched.path]).status == 4)
        #expect(!FileManager.default.fileExists(atPath: untouched.appendingPathComponent("relay/builds").path))

        let bought = try await relay(["run", path, "--yes", "--allow-packages"], package: nil)
        #expect(bought.status == 0, "\(bought.standardError)")
        #expect(bought.standardOutput == "Day pass for Rocky Park (for Summit Scramble), valid today\n")
        #expect(try await relay(["package", "trust", Self.trailKit], package: nil).status == 0)
        #expect(try await relay(["check", path], package: nil).status == 0)
        #expect(try await relay(["run", path, "--yes"], package: nil).status == 0)

        // A relative entry is relative to the workflow's folder, whatever the current folder.
        let kits = folder.appendingPathComponent("kits"), flows = folder.appendingPathComponent("flows")
        try FileManager.default.createDirectory(at: kits, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: kits.appendingPathComponent("TrailKit").path, withDestinationPath: Self.trailKit)
        let relative = flows.appendingPathComponent("relative.yaml")
        try "packages: [../kits/TrailKit]\nsteps:\n  - buy-day-pass: summit\n".write(to: relative, atomically: true, encoding: .utf8)
        for current in ["/", flows.path, kits.path] {
            #expect(try await relay(["check", relative.path], package: nil, in: URL(fileURLWithPath: current)).status == 0, "from \(current)")
            let elsewhere = try await relay(["run", relative.path, "--yes"], package: nil, in: URL(fileURLWithPath: current))
            #expect(elsewhere.status == 0, "from \(current): \(elsewhere.standardError)")
        }

        let missing = try workflow("missing.yaml", "packages: [./NoSuchKit]\nsteps:\n  - comment: x\n")
        let failed = try await relay(["run", missing], package: nil)
        #expect(failed.status == 2)
        #expect(try await relay(["check", missing], package: nil).status == 2)
        #expect(failed.standardError.contains("missing.yaml:1:12: error: cannot load the package './NoSuchKit': there is no Swift package at"), "\(failed.standardError)")
    }

    @Test("TrailKit's workflows (Examples/TrailKit/workflows) print their expected output: disambiguation answered by key, display names, an entity list, a typed output")
    func trailKitWorkflows() async throws {
        let folder = URL(fileURLWithPath: Self.trailKit).appendingPathComponent("workflows")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(names.count >= 4)
        for name in names {
            let base = String(name.dropLast(5))
            let expected = try String(contentsOf: folder.appendingPathComponent("expected/\(base).out"), encoding: .utf8)
            let extra = (try? String(contentsOf: folder.appendingPathComponent("expected/\(base).args"), encoding: .utf8))?
                .split(separator: "\n").map(String.init) ?? []
            let result = try await relay(["run", folder.appendingPathComponent(name).path, "--allow-packages"] + extra, package: nil)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            #expect(result.standardOutput == expected, "\(name)")
        }
        // An answer for the prompt itself wins over one for the question's key.
        let both = try await relay(
            ["run", folder.appendingPathComponent("weekend-hike.yaml").path, "--allow-packages", "--answer", "trail=Ridge Loop",
             "--answer", "Which trail in Cascade Park?=Lakeshore Path"], package: nil)
        #expect(both.standardOutput == "Lakeshore Path: 2.5 km, easy\n", "\(both.standardError)")
        // With no terminal and no answer, the question fails the step, saying how to answer it.
        let unanswered = try await relay(["run", folder.appendingPathComponent("weekend-hike.yaml").path, "--allow-packages"], package: nil)
        #expect(unanswered.status == 1)
        #expect(unanswered.standardError.contains("no answer for 'Which trail in Cascade Park?'") && unanswered.standardError.contains("--answer 'trail=Ridge Loop'"), "\(unanswered.standardError)")
    }

    @Test("transfer selection: a PDF parameter gets the PDF sheet, RTF-or-image-or-text the RTF, an image the PNG card, text the name")
    func transferSelection() async throws {
        let ridge = "  - find: trails\n    where: {name: {is: Ridge Loop}}\n"
        let pdf = try await relay(["run", try workflow("pdf.yaml", "steps:\n\(ridge)  - make-pdf\n  - get-text\n")])
        #expect(pdf.status == 0, "\(pdf.standardError)")
        #expect(pdf.standardOutput == "Ridge Loop\nDistance: 4.2 km\nRegion: Cascades\nDifficulty: moderate\n")

        let note = try await relay([
            "run", try workflow("note.yaml", "steps:\n  - create-note: Hikes\n\(ridge)  - append-to-note: Hikes\n  - get-details: body\n"),
            "--allow-write=\(folder.appendingPathComponent("Notes").path)",
        ])
        #expect(note.status == 0, "\(note.standardError)")
        #expect(note.standardOutput.contains("# Ridge Loop\n\nDistance: 4.2 km"), "\(note.standardOutput)")

        let image = try await relay(["run", try workflow("png.yaml", "steps:\n\(ridge)  - rotate-image: 90\n  - get-item: 1\n  - text: \"${previous.type} ${previous.width}x${previous.height}\"\n")])
        #expect(image.status == 0, "\(image.standardError)")
        #expect(image.standardOutput == "public.png 400x600\n")

        let text = try await relay(["run", try workflow("text.yaml", "steps:\n\(ridge)  - change-case: upper\n")])
        #expect(text.standardOutput == "RIDGE LOOP\n")
    }

    @Test("one conversion rule across the host: convert and get-text use the trail's sheet and card; a list of one is its item; properties of a list map")
    func conversionsAcrossTheHost() async throws {
        let ridge = "  - find: trails\n    where: {name: {is: Ridge Loop}}\n"
        let pdf = try await relay(["run", try workflow("convert-pdf.yaml", "steps:\n\(ridge)  - convert: pdf\n  - get-text\n")])
        #expect(pdf.status == 0, "\(pdf.standardError)")
        #expect(pdf.standardOutput.contains("Distance: 4.2 km"), "\(pdf.standardOutput)")
        let png = try await relay(["run", try workflow("convert-png.yaml", "steps:\n\(ridge)  - convert: png\n  - text: \"${previous.type} ${previous.width}x${previous.height}\"\n")])
        #expect(png.standardOutput == "public.png 600x400\n", "\(png.standardError)")
        let url = try await relay(["run", try workflow("url.yaml", "steps:\n\(ridge)  - get-url\n")])
        #expect(url.standardOutput == "https://trails.example.com/trail/1\n", "\(url.standardError)")
        let rotated = try await relay(["run", try workflow("rotate.yaml", "steps:\n\(ridge)  - rotate-image: 90\n  - text: \"${previous.width}x${previous.height}\"\n")])
        #expect(rotated.standardOutput == "400x600\n", "\(rotated.standardError)")
        let three = try await relay([
            "run", try workflow("three.yaml", "steps:\n  - find: trails\n    limit: 3\n  - convert: png\n  - text: \"${previous.width}\"\n"),
        ])
        #expect(three.standardOutput == "600\n600\n600\n", "\(three.standardError)")
        // Explicit text is the first text representation (the RTF sheet); implicit text the name.
        let text = try await relay(["run", try workflow("get-text.yaml", "steps:\n\(ridge)  - get-text:\n    as: sheet\n  - text: \"${sheet}|\"\n")])
        #expect(text.standardOutput.hasPrefix("Ridge Loop\n\nDistance: 4.2 km"), "\(text.standardOutput)\(text.standardError)")
        // Every content type: the first form that is one, else the cheapest chain, else an error naming both sides.
        let kinds = ["com.example.trailkit.trail", "pdf", "rtf", "png", "jpeg", "html", "plain-text", "public.data"]
        var steps = "steps:\n\(ridge)  - get-item: 1\n    as: trail\n"
        for (index, kind) in kinds.enumerated() { steps += "  - convert: \"\(kind)\"\n    input: \"${trail}\"\n    as: c\(index)\n" }
        steps += "  - text: \"" + kinds.indices.map { "${c\($0).type}" }.joined(separator: " ") + "\"\n"
        let matrix = try await relay(["run", try workflow("matrix.yaml", steps)])
        #expect(
            matrix.standardOutput
                == "com.example.trailkit.trail com.adobe.pdf public.rtf public.png public.jpeg public.html public.plain-text com.example.trailkit.trail\n",
            "\(matrix.standardError)")
        let none = try await relay(["run", try workflow("none.yaml", "steps:\n\(ridge)  - convert: gif\n")])
        #expect(none.status == 1)
        #expect(none.standardError.contains("it offers com.example.trailkit.trail, relay.rich-text, public.png, public.plain-text"), "\(none.standardError)")
    }

    @Test("a package's converters, file properties and value queries cross the host: a saved .trail file has a distance, becomes its PDF sheet and its trail again")
    func packageConversionsAcrossTheHost() async throws {
        let save = """
            steps:
              - find: trails
                where: {name: {is-any-of: [Ridge Loop, Lakeshore Path]}}
              - for-each:
                do:
                  - save-file: { to: "${item.name}.trail" }
              - get-item: 1
                as: saved
              - text: "${saved.distance} ${saved.difficulty}"
                as: facts
              - convert: pdf
                input: "${saved}"
              - get-text:
                as: sheet
              - convert: trail
                input: "${saved}"
              - get-url:
                as: url
              - text: "${facts}|${url}|${sheet}"

            """
        let saved = try await relay(["run", try workflow("save.yaml", save), "--allow-write=\(folder.path)"])
        #expect(saved.status == 0, "\(saved.standardError)")
        #expect(saved.standardOutput.hasPrefix("4.2 moderate|https://trails.example.com/trail/1|Ridge Loop"), "\(saved.standardOutput)")
        #expect(saved.standardOutput.contains("Distance: 4.2 km"), "\(saved.standardOutput)")

        // A filter and a sort wait for the host's reading of each file.
        let long = "steps:\n  - find-files: .\n    where: {extension: trail, distance: {greater-than: 3}}\n  - text: \"${previous.name}\"\n"
        let found = try await relay(["run", try workflow("long.yaml", long)])
        #expect(found.standardOutput == "Ridge Loop.trail\n", "\(found.standardOutput)\(found.standardError)")
        let sorted = "steps:\n  - find-files: .\n    where: {extension: trail}\n    sort: {by: distance}\n  - text: \"${previous.difficulty}\"\n"
        let ordered = try await relay(["run", try workflow("sorted.yaml", sorted)])
        #expect(ordered.standardOutput == "easy\nmoderate\n", "\(ordered.standardOutput)\(ordered.standardError)")

        // A file that is no trail: the host's reader fails, and the step says which file.
        try Data("not json".utf8).write(to: folder.appendingPathComponent("broken.trail"))
        let broken = try await relay(["run", try workflow("broken.yaml", "steps:\n  - find-files: .\n    where: {name: broken.trail}\n  - text: \"${previous.distance}\"\n")])
        #expect(broken.status == 1)
        #expect(broken.standardError.contains("broken.yaml:4:14: error: step 'text': cannot read 'distance' of 'broken.trail'"), "\(broken.standardError)")
    }

    @Test("confirmations and choices cross the host: --yes, --answer, a no or Cancel ends the run with exit 3")
    func questions() async throws {
        let pass = try workflow("pass.yaml", "steps:\n  - buy-day-pass: Cascade Park\n")
        let prompt = "Buy a day pass for Cascade Park for $5?"
        #expect(try await relay(["run", pass, "--answer", "\(prompt)=yes"]).standardOutput == "Day pass for Cascade Park, valid today\n")
        let declined = try await relay(["run", pass, "--answer", "\(prompt)=no"])
        #expect(declined.status == 3)
        let unanswered = try await relay(["run", pass])
        #expect(unanswered.status == 1)
        #expect(unanswered.standardError.contains("no answer for '\(prompt)'"))

        let tidy = try workflow("tidy.yaml", "steps:\n  - archive-or-delete: summit\n")
        let question = "Archive or delete the log of Summit Scramble?"
        #expect(try await relay(["run", tidy, "--answer", "\(question)=Delete"]).standardOutput == "Deleted the log of Summit Scramble\n")
        #expect(try await relay(["run", tidy, "--answer", "\(question)=Cancel"]).status == 3)
        // Without a terminal, --yes takes the default option; without it the error names the
        // options and --yes, not a step default the workflow cannot give.
        #expect(try await relay(["run", tidy, "--yes"]).standardOutput == "Archived the log of Summit Scramble\n")
        let unchosen = try await relay(["run", tidy])
        #expect(unchosen.status == 1)
        #expect(
            unchosen.standardError.contains(
                "no answer for '\(question)': standard input is not a terminal; pass --answer '\(question)=Archive' (options: 'Archive', 'Delete', 'Cancel'), or --yes to take the default 'Archive'"),
            "\(unchosen.standardError)")

        // On a terminal: the destructive option marked, Cancel last, Enter takes the default.
        let environment = "env NO_COLOR=1 XDG_CACHE_HOME=\(Self.cache.path) XDG_DATA_HOME=\(data.path) XDG_STATE_HOME=\(folder.path)/state"
        let terminal = try TerminalSession(
            "\(environment) \(RelayProcess.executable.path) run \(tidy) --package \(Self.trailKit); echo \"[exit $?]\"; sleep 30")
        try await terminal.waitFor("  2. Delete (destroys)\n  3. Cancel\nNumber or name: [Archive]", seconds: 60)
        try await terminal.send("Enter")
        try await terminal.waitFor("Archived the log of Summit Scramble\n[exit 0]")
    }

    @Test("favourites persist in the package's data folder; the deferred conditions are fetched from the host")
    func favoritesAndDeferred() async throws {
        let set = try workflow("fav.yaml", "steps:\n  - set-favorite: cedar\n  - set-favorite: lakeshore\n  - suggest-trails: favorites\n")
        let favorites = try await relay(["run", set])
        #expect(favorites.status == 0, "\(favorites.standardError)")
        #expect(favorites.standardOutput == "Lakeshore Path\nCedar Grove Walk\n")
        let summary = try await relay(["run", try workflow("sum.yaml", "steps:\n  - get-activity-summary\n  - get-details: distance\n")])
        #expect(summary.standardOutput == "4.1\n")

        // set-favorite registered its undo: relay undo performs it through the package.
        let undone = try await relay(["undo"], package: nil)
        #expect(undone.status == 0, "\(undone.standardError)")
        #expect(undone.standardError == "undid 2 changes of \(set)\n")
        #expect(try await relay(["run", set.replacingOccurrences(of: "fav.yaml", with: "sum.yaml")]).standardOutput == "0\n")
        #expect(try await relay(["undo", "--list"], package: nil).standardOutput.contains("Undo Set Favorite (trails.set-favorite)"))
        let conditions = try await relay(["run", try workflow("cond.yaml", "steps:\n  - find: trails\n    where: {name: {is: Summit Scramble}}\n  - get-item: 1\n  - get-details: conditions\n")])
        #expect(conditions.standardOutput == "Clear, 4 °C; snow above 2,500 m\n")

        // A filter and a sort on the deferred conditions of all five trails: one request to the
        // host, and one to the weather service, for all of them; the steps after ask no more.
        let counter = URL(fileURLWithPath: dataFolder(of: Self.trailKit)).appendingPathComponent("conditions-requests")
        try? FileManager.default.removeItem(at: counter)
        let all = "steps:\n  - find: trails\n    where: {conditions: {contains: \"°C\"}}\n    sort: {by: conditions}\n  - for-each:\n    do:\n      - text: \"${item.conditions}\"\n  - count\n"
        let counted = try await relay(["run", try workflow("all.yaml", all)])
        #expect(counted.standardOutput == "5\n", "\(counted.standardError)")
        #expect(try String(contentsOf: counter, encoding: .utf8) == "1")
    }

    @Test("relay package init makes a package that relay run --package uses at once, and refuses a bad name or an existing folder")
    func scaffold() async throws {
        let made = try await relay(["package", "init", "BirdKit"], package: nil)
        #expect(made.status == 0, "\(made.standardError)")
        for file in ["Package.swift", "Sources/BirdKit/BirdKit.swift", "Sources/relay-host/main.swift", "Tests/BirdKitTests/BirdKitTests.swift", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("BirdKit/\(file)").path), "\(file)")
        }
        let greeting = try await relay(["run", try workflow("hello.yaml", "steps:\n  - greet: Ada\n")], package: folder.appendingPathComponent("BirdKit").path)
        #expect(greeting.status == 0, "\(greeting.standardError)")
        #expect(greeting.standardOutput == "Hello, Ada!\n")
        #expect(try await relay(["package", "init", "BirdKit"], package: nil).status == 1)
        #expect(try await relay(["package", "init", "bird kit"], package: nil).status == 2)
    }

    // MARK: - Packages that fail

    /// A package whose actions crash and hang, written into a temporary folder.
    private func badPackage(named name: String, source: String) throws -> String {
        let root = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/relay-host"), withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "\(name)", platforms: [.macOS(.v14)],
                products: [.executable(name: "relay-host", targets: ["relay-host"])],
                dependencies: [.package(path: "\(RelayProcess.root.appendingPathComponent("RelayKit").path)")],
                targets: [.executableTarget(name: "relay-host", dependencies: [.product(name: "RelayKit", package: "RelayKit")])]
            )
            """
        try manifest.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try source.write(to: root.appendingPathComponent("Sources/relay-host/main.swift"), atomically: true, encoding: .utf8)
        return root.path
    }

    /// A package whose actions crash, hang, and reach for what they were not handed (a file to
    /// read or write named by text, a TCP port): one build for the tests that use it.
    private func faultyPackage() throws -> String {
        try badPackage(
            named: "Faulty",
            source: """
                import Foundation
                import RelayKit
                #if canImport(Glibc)
                    import Glibc
                #endif

                struct Crash: Intent {
                    static let summary = "Crashes."
                    static let output = OutputType.text
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        FileHandle.standardError.write(Data("about to fall over\\n".utf8))
                        exit(7)
                    }
                }

                struct Hang: Intent {
                    static let summary = "Never answers."
                    static let output = OutputType.text
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        try await Task.sleep(for: .seconds(3600))
                        return .nothing
                    }
                }

                struct Peek: Intent {
                    static let summary = "Reads the file at a path given as text."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The path.") var path: String
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        .value(.text(try String(contentsOfFile: path, encoding: .utf8)))
                    }
                }

                struct Scribble: Intent {
                    static let summary = "Writes the file at a path given as text."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The path.") var path: String
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        try await context.fileChanges.write(Data("scribbled".utf8), to: path)
                        return .value(.text("wrote"))
                    }
                }

                /// `body` given 127.0.0.1:`port` as a socket address.
                func withLoopback<T>(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
                    var address = sockaddr_in()
                    address.sin_family = sa_family_t(AF_INET)
                    address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
                    address.sin_addr.s_addr = inet_addr("127.0.0.1")
                    return withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                    }
                }

                struct Dial: Intent {
                    static let summary = "Connects to a TCP port of this machine."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The port.") var port: Int
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                        guard socket >= 0 else { throw IntentError("cannot connect: \\(String(cString: strerror(errno)))") }
                        defer { close(socket) }
                        let connected = withLoopback(port) { connect(socket, $0, $1) }
                        if connected != 0 { throw IntentError("cannot connect: \\(String(cString: strerror(errno)))") }
                        return .value(.text("connected"))
                    }
                }

                struct Datagram: Intent {
                    static let summary = "Sends a UDP datagram to a port of this machine."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The port.") var port: Int
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
                        guard socket >= 0 else { throw IntentError("cannot make a socket: \\(String(cString: strerror(errno)))") }
                        defer { close(socket) }
                        let sent = withLoopback(port) { sendto(socket, "the key", 7, 0, $0, $1) }
                        if sent < 0 { throw IntentError("cannot send: \\(String(cString: strerror(errno)))") }
                        return .value(.text("sent"))
                    }
                }

                struct Agent: Intent {
                    static let summary = "Connects to a pathname UNIX socket."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The socket's path.") var path: String
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                        guard socket >= 0 else { throw IntentError("cannot make a socket: \\(String(cString: strerror(errno)))") }
                        defer { close(socket) }
                        var address = sockaddr_un()
                        address.sun_family = sa_family_t(AF_UNIX)
                        withUnsafeMutableBytes(of: &address.sun_path) { raw in
                            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
                        }
                        let connected = withUnsafePointer(to: &address) {
                            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                        }
                        if connected != 0 { throw IntentError("cannot connect: \\(String(cString: strerror(errno)))") }
                        return .value(.text("connected"))
                    }
                }

                struct Variable: Intent {
                    static let summary = "The value of a variable of the host's environment."
                    static let output = OutputType.text
                    @Parameter(primary: true, input: true, summary: "The name.") var name: String
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        .value(.text(ProcessInfo.processInfo.environment[name] ?? "(unset)"))
                    }
                }

                struct Remember: Intent {
                    static let summary = "Registers an undo that leaves a mark in the data folder."
                    static let output = OutputType.text
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        try await context.registerUndo(action: "forget", arguments: [:])
                        return .value(.text("remembered"))
                    }
                }

                struct Forget: Intent {
                    static let summary = "Undoes remember: leaves a mark in the data folder."
                    static let output = OutputType.text
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let folder = ProcessInfo.processInfo.environment["RELAY_PACKAGE_DATA"] ?? "/nonexistent"
                        try Data("forgotten".utf8).write(to: URL(fileURLWithPath: folder + "/forgotten"))
                        return .nothing
                    }
                }

                struct Swapper: Intent {
                    static let summary = "For some seconds, swaps a file between a regular file and a link to another."
                    static let output = OutputType.text
                    @Parameter(primary: true, summary: "The file to swap.") var path: String
                    @Parameter(summary: "Where the link points.") var target: String
                    @Parameter(summary: "For how long.") var seconds: Double = 5
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let path = self.path, target = self.target, until = Date().addingTimeInterval(seconds)
                        Thread.detachNewThread {
                            while Date() < until {
                                let temporary = path + ".tmp"
                                FileManager.default.createFile(atPath: temporary, contents: Data("harmless".utf8))
                                rename(temporary, path)
                                unlink(path)
                                symlink(target, path)
                            }
                            unlink(path)
                            FileManager.default.createFile(atPath: path, contents: Data("harmless".utf8))
                        }
                        return .value(.text("swapping"))
                    }
                }

                struct Quit: Intent {
                    static let summary = "Answers, then its host exits a moment later."
                    static let output = OutputType.text
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { exit(0) }
                        return .value(.text("leaving"))
                    }
                }

                struct Interview: Intent {
                    static let summary = "Asks a name, and greets it."
                    static let output = OutputType.text
                    static let supportedModes: IntentModes = [.foreground]
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        .value(.text("Hello, \\(try await context.ask(Question(prompt: "Name?", key: "visitor")).textValue)"))
                    }
                }

                struct Cover: Intent {
                    static let summary = "Hands over a file of the package's own."
                    static let output = OutputType.file
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                        return .value(.file(FileReference(path: root.appendingPathComponent("cover.txt").path)))
                    }
                }

                /// An entity whose representations lie: a "PDF" of text, an RTF of random bytes, a
                /// PNG that brings its host down.
                struct Shard: Entity {
                    static let typeName = EntityTypeName("shard")
                    static let properties: [EntityProperty<Shard>] = []
                    static var defaultQuery: any EntityQuery<Shard> { ShardQuery() }
                    let id: String
                    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "Shard \\(id)") }
                    var transferRepresentations: [TransferRepresentation] {
                        [
                            .data(.pdf) { Data("this is not a PDF at all".utf8) }.suggestedFileName("Shard sheet"),
                            .data(.rtf) { Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }) },
                            .data(.png) { exit(9) },
                            .file(.html) {
                                let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                                return FileReference(path: root.appendingPathComponent("cover.html").path)
                            },
                        ]
                    }
                }

                struct ShardQuery: EntityQuery {
                    func entities(for ids: [String]) async throws -> [Shard] { ids.map { Shard(id: $0) } }
                    func allEntities() async throws -> [Shard] { [Shard(id: "one")] }
                }

                /// An entity handed over as a file the package keeps in its own data folder.
                struct Keepsake: Entity {
                    static let typeName = EntityTypeName("keepsake")
                    static let properties: [EntityProperty<Keepsake>] = []
                    static var defaultQuery: any EntityQuery<Keepsake> { KeepsakeQuery() }
                    let id: String
                    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "Keepsake \\(id)") }
                    var transferRepresentations: [TransferRepresentation] {
                        [
                            .file(.plainText) {
                                let folder = ProcessInfo.processInfo.environment["RELAY_PACKAGE_DATA"] ?? "/nonexistent"
                                let path = folder + "/keepsake-\\(id).txt"
                                try Data("kept by the package\\n".utf8).write(to: URL(fileURLWithPath: path))
                                return FileReference(path: path)
                            },
                        ]
                    }
                }

                struct KeepsakeQuery: EntityQuery {
                    func entities(for ids: [String]) async throws -> [Keepsake] { ids.map { Keepsake(id: $0) } }
                    func allEntities() async throws -> [Keepsake] { [Keepsake(id: "one")] }
                }

                struct MakeKeepsake: Intent {
                    static let summary = "Outputs a keepsake."
                    static let output = OutputType.entity("keepsake")
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        .value(Keepsake(id: "one").parameterValue)
                    }
                }

                struct MakeShard: Intent {
                    static let summary = "Outputs a shard."
                    static let output = OutputType.entity("shard")
                    func perform(_ context: any IntentContext) async throws -> IntentResult {
                        .value(Shard(id: "one").parameterValue)
                    }
                }

                enum Faulty: IntentPackage {
                    static let name = "faulty"
                    static let intents: [any Intent.Type] = [
                        Crash.self, Hang.self, Peek.self, Scribble.self, Dial.self, Datagram.self, Agent.self, Variable.self,
                        Remember.self, Forget.self, Swapper.self, Quit.self, MakeShard.self, Interview.self, Cover.self, MakeKeepsake.self,
                    ]
                    static let entities: [any Entity.Type] = [Shard.self, Keepsake.self]
                }

                await PackageHost.serve(Faulty.self)
                """)
    }

    @Test("a package action that crashes or hangs is a located error of its step with the host's standard error; no host is left behind")
    func crashAndHang() async throws {
        let package = try faultyPackage()
        let crash = try await relay(["run", try workflow("crash.yaml", "steps:\n  - text: before\n  - faulty.crash\n")], package: package)
        #expect(crash.status == 1, "\(crash.standardError)")
        #expect(crash.standardError.contains("crash.yaml:3:5: error: step 'faulty.crash': the host of package 'faulty' exited with status 7"), "\(crash.standardError)")
        #expect(crash.standardError.contains("about to fall over"))
        // RELAY_LOG=packages shows a host's standard error as it comes, marked with the package.
        let logged = try await relay(["run", try workflow("crash.yaml", "steps:\n  - text: before\n  - faulty.crash\n")], package: package, environment: ["RELAY_LOG": "packages"])
        #expect(logged.standardError.contains("[faulty] about to fall over\n"), "\(logged.standardError)")

        // The host's own bound ends the hang: the message says which bound it was.
        let hang = try await relay(["run", try workflow("hang.yaml", "steps:\n  - faulty.hang\n")], package: package, environment: ["RELAY_PACKAGE_TIMEOUT": "2"])
        #expect(hang.status == 1)
        #expect(hang.standardError.contains("did not answer 'perform' within 2 s"), "\(hang.standardError)")

        // The step's own timeout stops the host too.
        let stepTimeout = try await relay(["run", try workflow("timeout.yaml", "steps:\n  - faulty.hang:\n    timeout: 1\n")], package: package)
        #expect(stepTimeout.status == 1)
        #expect(stepTimeout.standardError.contains("timeout.yaml:2:5: error"), "\(stepTimeout.standardError)")

        try await Task.sleep(for: .milliseconds(500))
        #expect(try hostsRunning(from: Self.cache.path) == 0, "a package host outlived its relay")
    }

    @Test("a host that exits between calls is replaced; representations that are not what they say or bring the host down are located errors")
    func hostGoneAndLyingRepresentations() async throws {
        let package = try faultyPackage()
        let quit = try await relay(["run", try workflow("quit.yaml", "steps:\n  - faulty.quit\n  - wait: 1\n  - faulty.quit\n")], package: package)
        // The next call starts a new host (Docs/Packages.md, "Two ways to use a package").
        #expect(quit.status == 0, "\(quit.status) \(quit.standardError)")
        #expect(quit.standardOutput == "leaving\n")

        let fakePDF = try await relay(["run", try workflow("pdf.yaml", "steps:\n  - faulty.make-shard\n  - convert: pdf\n  - get-text\n")], package: package)
        #expect(fakePDF.status == 1, "\(fakePDF.status) \(fakePDF.standardError)")
        #expect(fakePDF.standardError.contains("pdf.yaml:4:5: error: step 'get-text': cannot read 'Shard sheet.pdf' as a PDF"), "\(fakePDF.standardError)")

        let noise = try await relay(["run", try workflow("rtf.yaml", "steps:\n  - faulty.make-shard\n  - convert: rich-text\n  - get-text\n")], package: package)
        #expect(noise.status == 1, "\(noise.status) \(noise.standardError)")
        #expect(noise.standardError.contains("rtf.yaml:3:5: error: step 'convert': cannot read 'Shard one.rtf' as RTF"), "\(noise.standardError)")

        let fall = try await relay(["run", try workflow("png.yaml", "steps:\n  - faulty.make-shard\n  - convert: png\n")], package: package)
        #expect(fall.status == 1, "\(fall.status) \(fall.standardError)")
        #expect(fall.standardError.contains("png.yaml:3:5: error: step 'convert'"), "\(fall.standardError)")
        #expect(fall.standardError.contains("exited with status 9"), "\(fall.standardError)")

        // A file the package keeps in its own data folder is read where it is handed over, with
        // no grant for that folder; nothing else of the folder is readable so. (The workflows are
        // kept apart from the data folder: a workflow's own folder is readable freely.)
        let apart = FileManager.default.temporaryDirectory.appendingPathComponent("relay-apart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: apart, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: apart) }
        let keptFlow = apart.appendingPathComponent("kept.yaml")
        let handed = "steps:\n  - faulty.make-keepsake\n  - convert: file\n    as: kept\n  - get-text: \"${kept}\"\n"
        try handed.write(to: keptFlow, atomically: true, encoding: .utf8)
        let kept = try await relay(["run", keptFlow.path], package: package, in: apart)
        #expect(kept.status == 0, "\(kept.status) \(kept.standardError)")
        #expect(kept.standardOutput == "kept by the package\n")
        let other = dataFolder(of: package) + "/other.txt"
        try "private".write(toFile: other, atomically: true, encoding: .utf8)
        let besideFlow = apart.appendingPathComponent("beside.yaml")
        try (handed + "  - read-file: \(other)\n").write(to: besideFlow, atomically: true, encoding: .utf8)
        let beside = try await relay(["run", besideFlow.path], package: package, in: apart)
        #expect(beside.status == 4, "\(beside.status) \(beside.standardError)")
    }

    @Test("a foreground intent runs without a terminal when the run was given answers; without any, the run stops before its first step")
    func foreground() async throws {
        let package = try faultyPackage()
        let path = try workflow("meet.yaml", "steps:\n  - text: before\n  - save-file: { to: before.txt }\n  - faulty.interview\n")
        let refused = try await relay(["run", path, "--allow-write=\(folder.path)"], package: package)
        #expect(refused.status == 1)
        #expect(
            refused.standardError.contains("meet.yaml:4:5: error: step 'faulty.interview': 'faulty.interview' may need a person to answer it, and this run has no terminal"),
            "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("before.txt").path), "a step ran before the refusal")

        let answered = try await relay(["run", path, "--answer", "Name?=Ada", "--allow-write=\(folder.path)"], package: package)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput == "Hello, Ada\n")
        // The intent names its question: that name answers it too, whatever the prompt's words.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("before.txt"))
        let keyed = try await relay(["run", path, "--answer", "visitor=Grace", "--allow-write=\(folder.path)"], package: package)
        #expect(keyed.standardOutput == "Hello, Grace\n", "\(keyed.standardError)")

        let described = try await relay(["describe", "faulty.interview"], package: package)
        #expect(described.standardOutput.contains("Runs:    with a person to answer it"), "\(described.standardOutput)")
        let listed = try await relay(["actions", "--json"], package: package)
        #expect(listed.standardOutput.contains("\"foreground-only\": true"), "\(listed.standardOutput.prefix(400))")
        let checked = try await relay(["check", path], package: package)
        #expect(checked.status == 0)
        #expect(checked.standardError.contains("meet.yaml:4:5: note: 'faulty.interview' may need a person to answer it"), "\(checked.standardError)")
    }

    @Test("a trusted package's own files are read without a grant")
    func ownFiles() async throws {
        let package = try faultyPackage()
        try "the cover".write(toFile: package + "/cover.txt", atomically: true, encoding: .utf8)
        let read = try await relay(["run", try workflow("cover.yaml", "steps:\n  - faulty.cover\n  - get-text\n")], package: package)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput == "the cover\n")

        // A representation that is a file of the package's own is handed over as it is, not copied.
        try "<p>the shard's page</p>".write(toFile: package + "/cover.html", atomically: true, encoding: .utf8)
        let page = try await relay(
            ["run", try workflow("page.yaml", "steps:\n  - faulty.make-shard\n  - convert: html\n  - get-text\n")], package: package)
        #expect(page.status == 0, "\(page.standardError)")
        #expect(page.standardOutput == "the shard's page\n", "\(page.standardOutput)")
        let located = try await relay(
            ["run", try workflow("where.yaml", "steps:\n  - faulty.make-shard\n  - convert: html\n  - text: \"${previous.path}\"\n")], package: package)
        #expect(
            located.standardOutput == URL(fileURLWithPath: package + "/cover.html").resolvingSymlinksInPath().path + "\n",
            "\(located.standardOutput)\(located.standardError)")
    }

    @Test("a package's host is confined by the kernel: a file or port it was not handed is refused, exit 4 naming the flag; a grant starts a wider host")
    func confinement() async throws {
        let package = try faultyPackage()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("relay-confined-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let secret = outside.appendingPathComponent("secret.txt").path
        try "the key".write(toFile: secret, atomically: true, encoding: .utf8)

        let peek = try workflow("peek.yaml", "steps:\n  - faulty.peek: \(secret)\n")
        let refused = try await relay(["run", peek], package: package)
        if refused.standardError.contains("Landlock") && refused.standardError.contains("warning:") {
            print("skipped: \(refused.standardError)")
            return
        }
        #expect(refused.status == 4, "\(refused.standardError)")
        #expect(refused.standardOutput == "")
        #expect(
            refused.standardError.contains(
                "peek.yaml:2:5: error: step 'faulty.peek': needs to read \(secret), and the kernel refused it: "
                    + "the package 'faulty' may touch only what the run was granted; to grant it, run with --allow-read=\(secret)"),
            "\(refused.standardError)")
        let granted = try await relay(["run", peek, "--allow-read=\(outside.path)"], package: package)
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(granted.standardOutput == "the key\n")

        // Writing through the package's own FileChanges: the kernel, not Relay's gate, stops it.
        let written = outside.appendingPathComponent("written.txt").path
        let scribble = try workflow("scribble.yaml", "steps:\n  - faulty.scribble: \(written)\n")
        let readOnly = try await relay(["run", scribble, "--allow-read=\(outside.path)"], package: package)
        #expect(readOnly.status == 4, "\(readOnly.standardError)")
        #expect(readOnly.standardError.contains("needs to write \(written), and the kernel refused it"), "\(readOnly.standardError)")
        #expect(!FileManager.default.fileExists(atPath: written))
        // A dry run's host may change nothing, granted or not: the step says what it would write.
        let dry = try await relay(["run", scribble, "--allow-write=\(outside.path)", "--dry-run"], package: package)
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardError.contains("dry run: \(scribble):2: faulty.scribble would write \(written)\n"), "\(dry.standardError)")
        #expect(!FileManager.default.fileExists(atPath: written))
        #expect(try await relay(["run", scribble, "--allow-write=\(outside.path)"], package: package).standardOutput == "wrote\n")
        #expect(try String(contentsOfFile: written, encoding: .utf8) == "scribbled")

        // A TCP connection needs a net grant.
        let port = try #require(URL(string: await LocalHTTPServer.base())?.port)
        let dial = try workflow("dial.yaml", "steps:\n  - faulty.dial: \(port)\n")
        let offline = try await relay(["run", dial], package: package)
        #expect(offline.status == 1)
        #expect(offline.standardError.contains("cannot connect: Permission denied"), "\(offline.standardError)")
        #expect(try await relay(["run", dial, "--allow-net=127.0.0.1"], package: package).standardOutput == "connected\n")
    }

    @Test("without a net grant a host makes no socket of any family: no UDP datagram, no UNIX socket outside its grants; it keeps running")
    func socketsClosed() async throws {
        let package = try faultyPackage()
        #if os(Linux)
            // A UDP listener and a UNIX socket listener of this test's, outside every grant.
            let udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            defer { close(udp) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(udp, $0, length) == 0 ? getsockname(udp, $0, &length) : -1 }
            }
            let port = Int(UInt16(bigEndian: address.sin_port))
            let agentFolder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-agent-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: agentFolder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: agentFolder) }
            let agentPath = agentFolder.appendingPathComponent("agent.sock").path
            let agent = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(agent) }
            var unixAddress = sockaddr_un()
            unixAddress.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &unixAddress.sun_path) { raw in
                for (index, byte) in agentPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            let listening = withUnsafePointer(to: &unixAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(agent, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(listening == 0 && listen(agent, 1) == 0)

            let steps = "steps:\n  - faulty.datagram: \(port)\n    on-error: [{ text: udp refused }]\n  - show\n"
                + "  - faulty.agent: \(agentPath)\n    on-error: [{ text: unix refused }]\n  - show\n  - nothing\n"
            let sockets = try workflow("sockets.yaml", steps)
            for arguments in [["run", sockets], ["run", sockets, "--dry-run"]] {
                let result = try await relay(arguments, package: package)
                if result.standardError.contains("Landlock") && result.standardError.contains("warning:") {
                    print("skipped: \(result.standardError)")
                    return
                }
                #expect(result.status == 0, "\(result.standardError)")
                #expect(result.standardOutput == "udp refused\nunix refused\n", "\(arguments): \(result.standardOutput)")
            }
            // With a net grant, UDP goes out (the kernel cannot tell hosts apart for it).
            let granted = try await relay(["run", sockets, "--allow-net=127.0.0.1"], package: package)
            #expect(granted.standardOutput.hasPrefix("sent\n"), "\(granted.standardError)")
            var buffer = [UInt8](repeating: 0, count: 16)
            #expect(recv(udp, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == 7)
        #endif
    }

    @Test("relay undo runs a package only as it was when it registered the undo: a changed package is refused, the rest is undone")
    func undoOfChangedPackage() async throws {
        let package = try faultyPackage()
        let mark = URL(fileURLWithPath: dataFolder(of: package)).appendingPathComponent("forgotten")
        let remember = try workflow("remember.yaml", "steps:\n  - faulty.remember\n")
        #expect(try await relay(["run", remember], package: package).status == 0)
        let undone = try await relay(["undo"], package: nil)
        #expect(undone.status == 0, "\(undone.standardError)")
        #expect(FileManager.default.fileExists(atPath: mark.path), "\(undone.standardError)")
        try FileManager.default.removeItem(at: mark)

        // A file change and the package's undo in one run; then the package is edited.
        let note = folder.appendingPathComponent("note.txt")
        let both = try workflow("both.yaml", "steps:\n  - text: hello\n  - save-file: { to: \(note.path) }\n  - faulty.remember\n")
        #expect(try await relay(["run", both, "--allow-write=\(folder.path)"], package: package).status == 0)
        let source = URL(fileURLWithPath: package).appendingPathComponent("Sources/relay-host/main.swift")
        try (try String(contentsOf: source, encoding: .utf8) + "\n// edited after the run\n").write(to: source, atomically: true, encoding: .utf8)
        let refused = try await relay(["undo"], package: nil)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("changed since it registered this undo, so it is not built or run"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: mark.path))
        #expect(!FileManager.default.fileExists(atPath: note.path), "the file change is undone all the same")
    }

    @Test("a confined host that swaps a file between a regular file and a link to a secret, while a workflow reads it, never gets the secret read")
    func racingHost() async throws {
        let package = try faultyPackage()
        let shared = folder.appendingPathComponent("shared")
        let secrets = FileManager.default.temporaryDirectory.appendingPathComponent("relay-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let secret = secrets.appendingPathComponent("id_rsa")
        try "PRIVATE KEY".write(to: secret, atomically: true, encoding: .utf8)
        let data = shared.appendingPathComponent("data.txt")
        try "harmless".write(to: data, atomically: true, encoding: .utf8)
        let race = try workflow("race.yaml", """
            steps:
              - faulty.swapper: { path: "\(data.path)", target: "\(secret.path)", seconds: 4 }
              - repeat: 400
                do:
                  - text: "\(data.path)"
                  - convert: file
                  - get-text:
                    on-error: [{ text: refused }]
                  - show
              - nothing
            """)
        let result = try await relay(["run", race, "--allow-write=\(shared.path)"], package: package)
        #expect(!result.standardOutput.contains("PRIVATE KEY"), "\(result.standardOutput.prefix(2000))")
        #expect(!result.standardError.contains("PRIVATE KEY"))
        // It ends either after every read, or at the first check that sees the link (a denial, exit 4).
        #expect(result.status == 0 || result.status == 4, "\(result.standardError)")
    }

    @Test("a host gets a small fixed environment: no token, no agent socket, its data folder")
    func hostEnvironment() async throws {
        let package = try faultyPackage()
        let names = ["API_TOKEN", "SSH_AUTH_SOCK", "AWS_SECRET_ACCESS_KEY", "HOME", "RELAY_PACKAGE_DATA"]
        let steps = names.map { "  - faulty.variable: \($0)\n  - text: \"\($0)=${previous}\"\n  - show\n" }.joined()
        let result = try await relay(
            ["run", try workflow("environment.yaml", "steps:\n" + steps + "  - nothing\n")], package: package,
            environment: ["API_TOKEN": "t0ken", "SSH_AUTH_SOCK": "/tmp/agent", "AWS_SECRET_ACCESS_KEY": "aws"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.prefix(3) == ["API_TOKEN=(unset)", "SSH_AUTH_SOCK=(unset)", "AWS_SECRET_ACCESS_KEY=(unset)"], "\(lines)")
        #expect(lines.count == 5 && lines[3] != "HOME=(unset)" && lines[4].hasPrefix("RELAY_PACKAGE_DATA=\(data.path)"), "\(lines)")
    }

    @Test("relay package build checks every example of the package's actions: one that does not check is an error at the line that writes it, exit 2; LibraryKit's all check")
    func examplesChecked() async throws {
        let package = try badPackage(
            named: "Examples",
            source: """
                import RelayKit
                struct Greet: Intent {
                    static let summary = "Greets."
                    static let output = OutputType.text
                    static let examples = [
                        IntentExample("- examples.greet: Ada", output: "Hello, Ada"),
                        IntentExample("- examples.greeet: Ada"),
                    ]
                    @Parameter(primary: true, summary: "Who.") var who: String
                    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.text("Hello, \\(who)")) }
                }
                enum Examples: IntentPackage {
                    static let name = "examples"
                    static let intents: [any Intent.Type] = [Greet.self]
                }
                await PackageHost.serve(Examples.self)
                """)
        let built = try await relay(["package", "build", "--debug", package], package: nil)
        #expect(built.status == 2, "\(built.standardError)")
        #expect(
            built.standardError.contains(
                "Sources/relay-host/main.swift:7: error: example 2 of 'examples.greet' does not check: unknown action 'examples.greeet'; did you mean 'examples.greet'?"),
            "\(built.standardError)")
        #expect(!built.standardError.contains("example 1 of"), "\(built.standardError)")
        let library = try await relay(["package", "build", "--debug", Self.libraryKit], package: nil)
        #expect(library.status == 0 && library.standardOutput.hasPrefix("built: "), "\(library.standardError)")
    }

    @Test("a package that does not build is an error with the compiler's message, before its many warnings, exit 1")
    func buildFailure() async throws {
        // Warnings after the error, more than the message shows: the error is still shown.
        let warnings = (0..<30).map { "func unused\($0)() { let value = \($0) }\n" }.joined()
        let package = try badPackage(named: "Broken", source: "import RelayKit\nlet x: Int = \"not a number\"\n" + warnings)
        let result = try await relay(["run", try workflow("w.yaml", "steps:\n  - comment: x\n")], package: package)
        #expect(result.status == 1)
        #expect(result.standardError.contains("failed to build"), "\(result.standardError)")
        #expect(result.standardError.contains("cannot convert value of type 'String'"), "\(result.standardError)")
        #expect(result.standardError.contains("the build's output:"), "\(result.standardError)")
        // Progress is shown though standard error is no terminal: that it builds, then its steps.
        #expect(result.standardError.hasPrefix("Building package 'Broken' (the first time takes about 15 seconds)…\nBuilding package 'Broken': ["), "\(result.standardError)")
        // Each compiler message once, without the build's step lines.
        let output = result.standardError.components(separatedBy: "the build's output:").last ?? ""
        #expect(output.components(separatedBy: "error: cannot convert value").count == 3, "\(output)")
        #expect(!output.contains("Compiling relay_host"), "\(output)")
    }

    /// How many processes run an executable from under `folder`.
    private func hostsRunning(from folder: String) throws -> Int {
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
        return entries.filter { Int($0) != nil }.filter { pid in
            let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            return executable.hasPrefix(folder)
        }.count
    }
}
