/// Aligned columns for human output. Widths count characters, so "Técnico" lines up too.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    func render(colour: Bool) -> String {
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                index == cells.count - 1 ? pair.0 : pair.0 + String(repeating: " ", count: pair.1 - pair.0.count)
            }.joined(separator: "  ")
        }
        let header = line(headers)
        var text = colour ? "\u{1B}[1m\(header)\u{1B}[0m\n" : header + "\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }
}
