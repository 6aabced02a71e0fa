/// Runs a lane's units of work a few at a time and gives the results back in input order.
package enum CaseSchedule {
    /// Runs `body` for each index in `0..<count`, at most `jobs` at once.
    /// - Parameters:
    ///   - count: how many units there are.
    ///   - jobs: how many run at once (at least one).
    ///   - body: plays one unit.
    /// - Returns: the results, in index order.
    package static func run<Result: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) async -> Result) async -> [Result] {
        var collected: [(Int, Result)] = []
        await stream(count: count, jobs: jobs, body) { index, result in collected.append((index, result)) }
        return collected.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Runs `body` for each index in `0..<count`, at most `jobs` at once, and hands each result to
    /// `finished` as soon as its unit ends (in the order units end, on the calling task).
    /// - Parameters:
    ///   - count: how many units there are.
    ///   - jobs: how many run at once (at least one).
    ///   - body: plays one unit.
    ///   - finished: receives a unit's index and result when it ends.
    package static func stream<Result: Sendable>(
        count: Int, jobs: Int, _ body: @escaping @Sendable (Int) async -> Result, finished: (Int, Result) -> Void
    ) async {
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            while next < min(max(1, jobs), count) {
                let index = next
                group.addTask { (index, await body(index)) }
                next += 1
            }
            for await (index, result) in group {
                finished(index, result)
                if next < count {
                    let index = next
                    group.addTask { (index, await body(index)) }
                    next += 1
                }
            }
        }
    }
}
