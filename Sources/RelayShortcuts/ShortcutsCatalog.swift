/// What Relay knows of Shortcuts' actions that it has no equivalent for, and of the kinds of
/// input a shortcut takes: for messages and the workflow's `input:`.
enum ShortcutsCatalog {
    /// Actions of Apple's devices and apps, which no other system has.
    private static let appleOnly: [String: String] = [
        "is.workflow.actions.speaktext": "Speak Text",
        "is.workflow.actions.vibrate": "Vibrate Device",
        "is.workflow.actions.setbrightness": "Set Brightness",
        "is.workflow.actions.setvolume": "Set Volume",
        "is.workflow.actions.lowpowermode.set": "Set Low Power Mode",
        "is.workflow.actions.getbatterylevel": "Get Battery Level",
        "is.workflow.actions.getdevicedetails": "Get Device Details",
        "is.workflow.actions.health.quantity.log": "Log Health Sample",
        "is.workflow.actions.health.workout.log": "Log Workout",
        "is.workflow.actions.homeaccessory": "Control Home",
        "is.workflow.actions.getcurrentlocation": "Get Current Location",
        "is.workflow.actions.playmusic": "Play Music",
        "is.workflow.actions.pausemusic": "Play/Pause",
        "is.workflow.actions.takephoto": "Take Photo",
        "is.workflow.actions.selectphoto": "Select Photos",
        "is.workflow.actions.sendmessage": "Send Message",
        "is.workflow.actions.openapp": "Open App",
        "is.workflow.actions.dnd.set": "Set Focus",
        "is.workflow.actions.wifi.set": "Set Wi-Fi",
        "is.workflow.actions.bluetooth.set": "Set Bluetooth",
        "is.workflow.actions.addnewreminder": "Add New Reminder",
        "is.workflow.actions.addnewevent": "Add New Event",
        "is.workflow.actions.share": "Share",
        "is.workflow.actions.previewdocument": "Quick Look",
        "is.workflow.actions.showdefinition": "Show Definition",
        "is.workflow.actions.location": "Get Current Location",
        "is.workflow.actions.properties.locations": "Get Details of Locations",
        "is.workflow.actions.splitscreen": "Split Screen Apps",
        "is.workflow.actions.getupcomingevents": "Get Upcoming Events",
        "is.workflow.actions.detect.phonenumber": "Get Phone Numbers from Input",
        "is.workflow.actions.encodemedia": "Encode Media",
    ]

    /// Other actions Relay has no equivalent for yet, by their names in Shortcuts.
    private static let titles: [String: String] = [
        "is.workflow.actions.getarticle": "Get Article from Web Page",
        "is.workflow.actions.rss": "Get Items from RSS Feed",
        "is.workflow.actions.rss.extract": "Get RSS Feeds from Page",
        "is.workflow.actions.url.expand": "Expand URL",
        "is.workflow.actions.setitemname": "Set Name",
        "is.workflow.actions.text.match.getgroup": "Get Group from Matched Text",
        "is.workflow.actions.detect.images": "Get Images from Input",
        "is.workflow.actions.getwebpagecontents": "Get Contents of Web Page",
        "is.workflow.actions.showresult": "Show Result",
        "is.workflow.actions.filter.files": "Filter Files",
        "is.workflow.actions.filter.articles": "Filter Articles",
        "is.workflow.actions.filter.calendarevents": "Find Calendar Events",
        "is.workflow.actions.documentpicker.save": "Save File",
        "is.workflow.actions.documentpicker.open": "Get File",
        "is.workflow.actions.detect.date": "Get Dates from Input",
        "is.workflow.actions.openin": "Open In",
        "is.workflow.actions.appendnote": "Append to Note",
        "is.workflow.actions.shownote": "Show Note",
        "is.workflow.actions.measurement.create": "Measurement",
        "is.workflow.actions.measurement.convert": "Convert Measurement",
        "is.workflow.actions.properties.calendarevents": "Get Details of Calendar Events",
        "is.workflow.actions.alert": "Show Alert",
        "is.workflow.actions.notification": "Show Notification",
        "is.workflow.actions.getvariable": "Get Variable",
        "is.workflow.actions.setvariable": "Set Variable",
        "is.workflow.actions.appendvariable": "Add to Variable",
        "is.workflow.actions.conditional": "If",
        "is.workflow.actions.repeat.count": "Repeat",
        "is.workflow.actions.repeat.each": "Repeat with Each",
        "is.workflow.actions.choosefrommenu": "Choose from Menu",
        "is.workflow.actions.exit": "Stop This Shortcut",
        "is.workflow.actions.output": "Stop and Output",
        "is.workflow.actions.runworkflow": "Run Shortcut",
    ]

    /// The name an action has in Shortcuts; for another app's action, the last part of its
    /// identifier (`com.example.app.LogIntent` → `LogIntent`).
    static func title(of identifier: String) -> String? {
        if let known = appleOnly[identifier] ?? titles[identifier] { return known }
        guard !identifier.hasPrefix("is.workflow.actions.") else { return nil }
        return identifier.split(separator: ".").last.map(String.init)
    }

    /// Why an action without a mapping cannot be imported.
    static func reason(for identifier: String) -> String {
        if let title = appleOnly[identifier] { return "\(title) works only on Apple's devices" }
        if !identifier.hasPrefix("is.workflow.actions.") { return "an action of another app, which only that app can run" }
        return "Relay has no equivalent for it yet"
    }

    /// Relay's type for one kind of input a shortcut takes (its content item class), or nil.
    static func inputType(of itemClass: String) -> String? {
        switch itemClass {
        case "WFStringContentItem": "text"
        case "WFURLContentItem", "WFSafariWebPageContentItem": "url"
        case "WFNumberContentItem": "number"
        case "WFDateContentItem": "date"
        case "WFDictionaryContentItem": "dictionary"
        case "WFRichTextContentItem": "rich-text"
        case "WFImageContentItem", "WFGenericFileContentItem", "WFPDFContentItem": "file"
        default: nil
        }
    }
}
