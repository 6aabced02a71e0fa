/// A suite's sequence picture as inline SVG: one lifeline per client session and one for the
/// server, an arrow per request and answer, boxes for local writes, server changes and state
/// checks, crosses for faults and lost answers, a bar for a kill. The marks of a failing step
/// are red and carry its rule ids in the right margin; every mark has its full text as a tooltip.
struct SequencePicture {
    /// The timeline to draw.
    var timeline: SequenceTimeline
    /// The rule ids (or "error") of each failing step, by step number.
    var failing: [Int: [String]]

    private static let stepColumn = 44.0
    private static let spacing = 250.0
    private static let rowHeight = 28.0
    private static let top = 44.0
    private static let margin = 170.0
    private static let labelLimit = 40
    private static let boxLimit = 33

    private func x(_ lifeline: Int) -> Double { Self.stepColumn + Self.spacing / 2 + Double(lifeline) * Self.spacing }

    /// The picture's markup.
    /// - Returns: an `<svg>` element, or a paragraph when there is nothing to draw.
    func render() -> String {
        guard !timeline.lifelines.isEmpty else { return "<p class=\"muted\">no sequence to draw</p>\n" }
        let width = Self.stepColumn + Double(timeline.lifelines.count) * Self.spacing + Self.margin
        let rows = Double(timeline.events.count + (timeline.omitted > 0 ? 1 : 0))
        let height = Self.top + rows * Self.rowHeight + 16
        var out = "<svg class=\"sequence\" role=\"img\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        out += "viewBox=\"0 0 \(Int(width)) \(Int(height))\"><title>sequence of requests and answers</title>\n"
        for (index, line) in timeline.lifelines.enumerated() {
            let center = x(index)
            out += "<line class=\"lifeline \(line.role.rawValue)\" x1=\"\(center)\" y1=\"32\" x2=\"\(center)\" y2=\"\(height - 6)\"/>"
            out += "<rect class=\"head \(line.role.rawValue)\" x=\"\(center - 95)\" y=\"4\" width=\"190\" height=\"24\" rx=\"4\"/>"
            out += "<text class=\"head\" x=\"\(center)\" y=\"21\">\(HTMLText.escape(HTMLText.shortened(line.name, to: 30)))"
            out += "<title>\(HTMLText.escape(line.name))</title></text>\n"
        }
        var lastStep: Int?
        for (row, event) in timeline.events.enumerated() {
            let y = Self.top + Double(row) * Self.rowHeight + Self.rowHeight / 2
            let rules = event.step.flatMap { failing[$0] }
            out += "<g class=\"event \(event.kind.rawValue)\(rules == nil ? "" : " bad")\">"
            out += "<title>\(HTMLText.escape(title(event)))</title>"
            if let step = event.step, step != lastStep {
                out += "<text class=\"step\" x=\"6\" y=\"\(y + 4)\">\(step)</text>"
            }
            lastStep = event.step
            out += mark(event, y: y)
            if let rules, event.step != timeline.events[max(0, row - 1)].step || row == 0 {
                let last = x(timeline.lifelines.count - 1) + Self.spacing / 2
                let text = "✗ " + rules.joined(separator: " ")
                out += "<text class=\"rule\" x=\"\(last - 20)\" y=\"\(y + 4)\">\(HTMLText.escape(HTMLText.shortened(text, to: 26)))</text>"
            }
            out += "</g>\n"
        }
        if timeline.omitted > 0 {
            let y = Self.top + Double(timeline.events.count) * Self.rowHeight + Self.rowHeight / 2
            out += "<text class=\"omitted\" x=\"\(Self.stepColumn)\" y=\"\(y + 4)\">… \(timeline.omitted) more events not drawn</text>\n"
        }
        return out + "</svg>\n"
    }

    private func title(_ event: SequenceEvent) -> String {
        let step = event.step.map { "step \($0): " } ?? ""
        return step + event.label + (event.detail.isEmpty ? "" : "\n" + event.detail)
    }

    private func label(_ text: String, x: Double, y: Double, limit: Int = Self.labelLimit) -> String {
        "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"middle\">\(HTMLText.escape(HTMLText.shortened(text, to: limit)))</text>"
    }

    private func mark(_ event: SequenceEvent, y: Double) -> String {
        let from = x(event.from)
        switch event.kind {
        case .request, .answer, .lostAnswer, .fault:
            let to = x(event.to ?? event.from)
            let direction: Double = to >= from ? 1 : -1
            let broken = event.kind == .lostAnswer || event.kind == .fault
            let end = broken ? from + (to - from) * 0.55 : to
            var out = "<line class=\"arrow\" x1=\"\(from)\" y1=\"\(y + 6)\" x2=\"\(end)\" y2=\"\(y + 6)\"/>"
            if broken {
                out += "<path class=\"cross\" d=\"M\(end - 5) \(y + 1) L\(end + 5) \(y + 11) M\(end - 5) \(y + 11) L\(end + 5) \(y + 1)\"/>"
            } else {
                let tip = to - direction
                out += "<path class=\"head\" d=\"M\(tip) \(y + 6) L\(tip - 8 * direction) \(y + 2) L\(tip - 8 * direction) \(y + 10) Z\"/>"
            }
            return out + label(event.label, x: (from + to) / 2, y: y + 1)
        case .localWrite, .serverChange, .check:
            let shape = event.kind == .check ? "note" : "box"
            return "<rect class=\"\(shape)\" x=\"\(from - 110)\" y=\"\(y - 9)\" width=\"220\" height=\"20\" rx=\"3\"/>"
                + label(event.label, x: from, y: y + 5, limit: Self.boxLimit)
        case .kill:
            return "<rect class=\"kill\" x=\"\(from - 115)\" y=\"\(y - 8)\" width=\"230\" height=\"18\"/>"
                + label("⚡ " + event.label, x: from, y: y + 5, limit: Self.boxLimit)
        }
    }
}
