/// Runs a lane's units of work a few at a time and gives the results back in input order.
enum CaseSchedule {
    /// Runs `body` for each index in `0..<count`, at most `jobs` at once.
    /// - Parameters:
    ///   - count: how many units there are.
    ///   - jobs: how many run at once (at least one).
    ///   - body: plays one unit.
    /// - Returns: the results, in index order.
    static func run<Result: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) async -> Result) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            var collected: [(Int, Result)] = []
            while next < min(max(1, jobs), count) {
                let index = next
                group.addTask { (index, await body(index)) }
                next += 1
            }
            for await result in group {
                collected.append(result)
                if next < count {
                    let index = next
                    group.addTask { (index, await body(index)) }
                    next += 1
                }
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
