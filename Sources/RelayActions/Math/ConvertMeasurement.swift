import Foundation
import RelayKit

/// The units `convert-measurement` knows, by the names people write, and the kind each measures.
enum MeasurementUnits {
    struct Known: @unchecked Sendable {
        let kind: String
        let unit: Dimension
    }

    private static let day = UnitDuration(symbol: "d", converter: UnitConverterLinear(coefficient: 86_400))
    private static let week = UnitDuration(symbol: "wk", converter: UnitConverterLinear(coefficient: 604_800))

    static let byName: [String: Known] = {
        var table: [String: Known] = [:]
        func add(_ kind: String, _ unit: Dimension, _ names: String...) {
            for name in names { table[name] = Known(kind: kind, unit: unit) }
        }
        add("length", UnitLength.kilometers, "km", "kilometer", "kilometers", "kilometre", "kilometres")
        add("length", UnitLength.meters, "m", "meter", "meters", "metre", "metres")
        add("length", UnitLength.centimeters, "cm", "centimeter", "centimeters", "centimetre", "centimetres")
        add("length", UnitLength.millimeters, "mm", "millimeter", "millimeters", "millimetre", "millimetres")
        add("length", UnitLength.miles, "mi", "mile", "miles")
        add("length", UnitLength.yards, "yd", "yard", "yards")
        add("length", UnitLength.feet, "ft", "foot", "feet")
        add("length", UnitLength.inches, "in", "inch", "inches")
        add("length", UnitLength.nauticalMiles, "nmi", "nautical-mile", "nautical-miles")
        add("mass", UnitMass.kilograms, "kg", "kilogram", "kilograms")
        add("mass", UnitMass.grams, "g", "gram", "grams")
        add("mass", UnitMass.milligrams, "mg", "milligram", "milligrams")
        add("mass", UnitMass.metricTons, "t", "tonne", "tonnes")
        add("mass", UnitMass.pounds, "lb", "lbs", "pound", "pounds")
        add("mass", UnitMass.ounces, "oz", "ounce", "ounces")
        add("mass", UnitMass.stones, "st", "stone", "stones")
        add("temperature", UnitTemperature.celsius, "c", "°c", "celsius")
        add("temperature", UnitTemperature.fahrenheit, "f", "°f", "fahrenheit")
        add("temperature", UnitTemperature.kelvin, "k", "kelvin")
        add("volume", UnitVolume.liters, "l", "liter", "liters", "litre", "litres")
        add("volume", UnitVolume.milliliters, "ml", "milliliter", "milliliters", "millilitre", "millilitres")
        add("volume", UnitVolume.cubicMeters, "m3", "cubic-meter", "cubic-meters")
        add("volume", UnitVolume.gallons, "gal", "gallon", "gallons")
        add("volume", UnitVolume.imperialGallons, "imperial-gallon", "imperial-gallons")
        add("volume", UnitVolume.quarts, "qt", "quart", "quarts")
        add("volume", UnitVolume.pints, "pt", "pint", "pints")
        add("volume", UnitVolume.cups, "cup", "cups")
        add("volume", UnitVolume.fluidOunces, "fl-oz", "fluid-ounce", "fluid-ounces")
        add("speed", UnitSpeed.kilometersPerHour, "km/h", "kph", "kmh")
        add("speed", UnitSpeed.metersPerSecond, "m/s")
        add("speed", UnitSpeed.milesPerHour, "mph", "mi/h")
        add("speed", UnitSpeed.knots, "kn", "knot", "knots")
        add("duration", UnitDuration.seconds, "s", "sec", "second", "seconds")
        add("duration", UnitDuration.milliseconds, "ms", "millisecond", "milliseconds")
        add("duration", UnitDuration.minutes, "min", "minute", "minutes")
        add("duration", UnitDuration.hours, "h", "hr", "hour", "hours")
        add("duration", day, "d", "day", "days")
        add("duration", week, "wk", "week", "weeks")
        add("data", UnitInformationStorage.bits, "bit", "bits")
        add("data", UnitInformationStorage.bytes, "b", "byte", "bytes")
        add("data", UnitInformationStorage.kilobytes, "kb", "kilobyte", "kilobytes")
        add("data", UnitInformationStorage.megabytes, "mb", "megabyte", "megabytes")
        add("data", UnitInformationStorage.gigabytes, "gb", "gigabyte", "gigabytes")
        add("data", UnitInformationStorage.terabytes, "tb", "terabyte", "terabytes")
        add("data", UnitInformationStorage.kibibytes, "kib", "kibibyte", "kibibytes")
        add("data", UnitInformationStorage.mebibytes, "mib", "mebibyte", "mebibytes")
        add("data", UnitInformationStorage.gibibytes, "gib", "gibibyte", "gibibytes")
        add("data", UnitInformationStorage.tebibytes, "tib", "tebibyte", "tebibytes")
        return table
    }()

    /// The unit a name means (any case, spaces as hyphens), or an error with a did-you-mean.
    static func unit(_ name: String) throws(IntentError) -> Known {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "-")
        guard let known = byName[key] else {
            throw IntentError("'\(Excerpt.start(of: name, limit: 40))' is not a unit Relay knows\(Suggestions.didYouMean(key, in: byName.keys.sorted()))")
        }
        return known
    }

    @Sendable static func problem(_ name: String) -> String? { IntentError.problem { _ = try unit(name) } }
}

/// `convert-measurement`: a number in one unit as another.
struct ConvertMeasurement: Intent {
    static let summary =
        "Converts a number from one unit to another of the same kind: length, mass, temperature, volume, speed, duration or data (km, lb, °F, l, mph, h, MiB …)."
    static let examples = [
        IntentExample("- number: 10\n- convert-measurement: { from: km, to: mi }\n- format-number: 2", output: "6.21"),
        IntentExample("- convert-measurement: { value: 100, from: celsius, to: fahrenheit }", output: "212"),
    ]
    static let output = OutputType.number

    @Parameter(input: true, summary: "The number to convert.") var value: Double
    @Parameter(summary: "Its unit.", check: MeasurementUnits.problem) var from: String
    @Parameter(summary: "The unit to convert it to.", check: MeasurementUnits.problem) var to: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try MeasurementUnits.unit(from), target = try MeasurementUnits.unit(to)
        guard source.kind == target.kind else {
            throw IntentError("cannot convert \(from) to \(to): one measures \(source.kind), the other \(target.kind)")
        }
        guard value.isFinite else { throw IntentError("cannot convert \(NumberFormatting.text(value)) \(from)") }
        let converted = Measurement(value: value, unit: source.unit).converted(to: target.unit).value
        guard converted.isFinite else { throw IntentError("\(NumberFormatting.text(value)) \(from) is beyond what a number holds in \(to)") }
        // Twelve significant digits: the unit factors' rounding (211.99999999999 °F) is not shown.
        return .value(.number(Double(String(format: "%.12g", converted)) ?? converted))
    }
}
