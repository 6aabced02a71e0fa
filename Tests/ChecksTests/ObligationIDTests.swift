import Checks
import Testing

@Suite("Obligation ids are one enum")
struct ObligationIDTests {
    @Test("every ObligationID has exactly one catalog obligation, in the enum's order")
    func oneObligationPerID() {
        #expect(ClientObligation.all.map(\.obligation) == ObligationID.allCases)
        #expect(ClientObligation.all.map(\.id) == ObligationID.allCases.map(\.rawValue))
    }

    @Test("an id prints as its raw value and every one is in the catalog")
    func printsAsRawValue() {
        for id in ObligationID.allCases {
            #expect("\(id)" == id.rawValue)
            #expect(RuleCatalog.entry(id.rawValue) != nil, "\(id) is not in the catalog")
        }
        #expect(ObligationID.allCases.filter { $0.rawValue.hasPrefix("KM-") }.count == 7)
    }
}
