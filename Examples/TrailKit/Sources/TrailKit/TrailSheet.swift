import Foundation

/// The trail sheet as a one-page PDF: the name as a heading, then the distance, the region and
/// the difficulty. Written directly (PDF 1.4, the standard Helvetica fonts with their widths), so
/// the package needs no graphics library.
enum TrailSheet {
    static func pdf(for trail: Trail) -> Data {
        var content = "BT /F1 28 Tf 72 760 Td (\(escaped(trail.name))) Tj ET\n"
        let lines = ["Distance: \(trail.distanceText)", "Region: \(trail.region)", "Difficulty: \(trail.difficulty)"]
        for (index, line) in lines.enumerated() {
            content += "BT /F2 14 Tf 72 \(720 - index * 22) Td (\(escaped(line))) Tj ET\n"
        }
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream",
            font("Helvetica-Bold", widths: boldWidths, descriptor: 7),
            font("Helvetica", widths: regularWidths, descriptor: 8),
            descriptor("Helvetica-Bold", stemV: 140),
            descriptor("Helvetica", stemV: 88),
        ]
        var pdf = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let crossReference = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { pdf += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(crossReference)\n%%EOF\n"
        return Data(pdf.utf8)
    }

    /// A simple font with its widths for codes 32…255, so that every reader lays the text out
    /// (and extracts it) the same way whichever fonts are installed: without `/Widths` a reader
    /// takes them from whatever font it substitutes, and text extraction can split words.
    private static func font(_ name: String, widths: [Int], descriptor: Int) -> String {
        "<< /Type /Font /Subtype /Type1 /BaseFont /\(name) /Encoding /WinAnsiEncoding "
            + "/FirstChar 32 /LastChar 255 /Widths [\(widths.map(String.init).joined(separator: " "))] "
            + "/FontDescriptor \(descriptor) 0 R >>"
    }

    private static func descriptor(_ name: String, stemV: Int) -> String {
        "<< /Type /FontDescriptor /FontName /\(name) /Flags 32 /FontBBox [-166 -225 1000 931] "
            + "/ItalicAngle 0 /Ascent 718 /Descent -207 /CapHeight 718 /StemV \(stemV) >>"
    }

    /// Helvetica's advance widths (Adobe's font metrics, in thousandths of the font size) for
    /// WinAnsiEncoding codes 32…255; codes 127…159 are never written (see `escaped`), so 0.
    private static let regularWidths: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 333, 584, 333, 737, 333,
        400, 584, 333, 333, 333, 578, 537, 278, 333, 333, 365, 333, 834, 834, 834, 611,
        667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
        722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
        556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
    ]

    /// Helvetica-Bold's advance widths, as `regularWidths`.
    private static let boldWidths: [Int] = [
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 333, 584, 333, 737, 333,
        400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 333, 834, 834, 834, 611,
        722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
        722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
        556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
        611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
    ]

    /// `text` as a PDF string's content: ASCII as is (with `(`, `)` and `\` escaped), other
    /// characters of Windows-1252 as octal escapes, the rest as `?`.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "(", ")", "\\": result += "\\" + String(scalar)
            case _ where scalar.value >= 0x20 && scalar.value < 0x7F: result.unicodeScalars.append(scalar)
            case _ where scalar.value >= 0xA0 && scalar.value <= 0xFF: result += "\\" + String(scalar.value, radix: 8)
            default: result += "?"
            }
        }
        return result
    }
}
