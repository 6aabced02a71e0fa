/// `--fault NAME` (repeatable) of the commands that run a reference build with seeded faults
/// (`accord driver`, `accord serve`): the names read into a set, an unknown one refused with the
/// known ones listed.
enum SeededFaults {
    static func parse<Fault: RawRepresentable & CaseIterable & Hashable>(_ names: [String], as: Fault.Type, command: String)
        throws(UsageError) -> Set<Fault>
    where Fault.RawValue == String {
        var faults: Set<Fault> = []
        for name in names {
            guard let fault = Fault(rawValue: name) else {
                let known = Fault.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown fault '\(name)' (known: \(known))", command: command)
            }
            faults.insert(fault)
        }
        return faults
    }
}
