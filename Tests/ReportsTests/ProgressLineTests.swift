import Reports
import Testing

@Suite("the live progress line")
struct ProgressLineTests {
    @Test("it says cases done of total, failed, and the elapsed time in tenths")
    func text() {
        #expect(ProgressLine(done: 12, total: 40, failed: 1, elapsed: 3.24).text == "accord: 12/40 cases, 1 failed, 3.2 s")
        #expect(ProgressLine(done: 0, total: 1, failed: 0, elapsed: 0).text == "accord: 0/1 case, 0 failed, 0.0 s")
        #expect(ProgressLine(done: 3, total: 3, failed: 0, elapsed: 61.96).text == "accord: 3/3 cases, 0 failed, 62.0 s")
    }

    @Test("a redraw returns to the margin and erases what an older, longer line left")
    func redraw() {
        let line = ProgressLine(done: 1, total: 2, failed: 0, elapsed: 0.5)
        #expect(line.redraw == "\r" + line.text + "\u{1B}[K")
        #expect(ProgressLine.erase == "\r\u{1B}[K")
    }
}
