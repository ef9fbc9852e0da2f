import Foundation

/// The trail sheet as a one-page PDF: the name as a heading, then the distance, the region and
/// the difficulty. Written directly (PDF 1.4, the standard Helvetica fonts), so the package needs
/// no graphics library.
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
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
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
