import JSON
import KizunaWire

/// Infers the world a recording implies (`RecordedWorld`) from the recording alone, reading its
/// exchanges in order (`observe`, so a recording streams through it) with a model of the
/// recorded service's rows: what the recorded pushes did to them, and what the answers show.
///
/// - A row or row state a pull shows that the recorded pushes do not explain is another actor's
///   upsert, with the recorded seq it was shown at; a tombstone they do not explain is a delete
///   (of a row made for the purpose when the row was never seen).
/// - A `server_row` of a rejection or an abort that the model does not explain is the server's
///   row before that push; a DELETE_WINS the model does not explain, a delete before it.
/// - CHECKPOINT_EXPIRED is a reap (after a tombstone it can reap); RESET_REQUIRED, the minimum
///   schema version in force (`ServerInference`, with the rest of the configuration).
/// - Every complete pull's high-water is a write: the write the recording shows at that seq, or
///   a filler write to a row in a bucket no recorded client pulls (the recorded service had
///   other users, whose writes no answer shows).
///
/// `world()` then places each change where the recorded numbering needs it (`+Placement`): after
/// every write and pull the recorded seqs put before it, before every one they put after it, as
/// late as that allows (history, before the first exchange, when the first answer already shows
/// it). The recorded numbering has gaps (other buckets, other users): a replay binds it by order
/// and bijection, never density.
public struct WorldInference: Sendable {
    /// A row of the model: its table and key.
    struct RowKey: Hashable, Sendable {
        var table: String
        var pk: String
    }

    /// What made a row's current state.
    enum Writer: Hashable, Sendable {
        /// A recorded push, by exchange number.
        case push(Int)
        /// An inferred change, by index.
        case world(Int)
    }

    /// The model's view of one row of the recorded service.
    struct ModelRow: Sendable {
        /// The column values known (or, for `guessed` columns, supposed).
        var columns: JSONObject
        /// Columns whose value no answer showed: filled in when one does.
        var guessed: Set<String> = []
        /// False once deleted.
        var live = true
        /// What made the current state.
        var writer: Writer
        /// The recorded seq of the current state, once an answer showed it.
        var seq: SequenceNumber?
        /// The inferred change that made the row with guessed columns, to be filled in.
        var purpose: Int?
        /// Columns recorded pushes wrote since `purpose`.
        var touched: Set<String> = []
        /// Whether the last recorded write moved the row to another bucket value (which leaves a
        /// tombstone for the old one at the same seq).
        var moved = false
        /// For a row a recorded push wrote at a seq no answer showed yet: the highest complete
        /// high-water recorded before that push, which the write's seq lies above.
        var floor: SequenceNumber?

        /// Whether a shown row agrees with every column the model knows.
        func agrees(_ shown: JSONObject) -> Bool {
            columns.members.allSatisfy { guessed.contains($0.key) || (shown[$0.key] ?? .null) == $0.value }
        }
    }

    /// An inferred change before it is placed.
    struct Pending: Sendable {
        var change: WorldChange
        /// The recorded seq it must bind to, when an answer showed it.
        var seq: SequenceNumber?
        /// It comes after this exchange (0: from the start).
        var after: Int
        /// It comes before this exchange.
        var before: Int
        /// For a delete of a row the recording never showed: the row made for the purpose first.
        var create: JSONObject?
        /// It is placed as early as its window allows: a delete no answer shows, only the rows
        /// that pages stopped showing (a later delete would reach clients that earlier ones missed).
        var early = false
    }

    /// Which write made a recorded seq, and the first exchange that showed it.
    struct Identified: Sendable {
        var writer: Writer
        var shownBy: Int
    }

    /// A pull's cursor: a complete page's high-water, or a continuation page's last position.
    struct Mark: Sendable {
        var exchange: Int
        var seq: SequenceNumber
        var complete: Bool
    }

    /// A table and a bucket value: the rows a pull's bucket entry can show.
    struct BucketKey: Hashable, Sendable {
        var table: String
        var value: JSONValue
    }

    var inference = ServerInference()
    private(set) var rows: [RowKey: ModelRow] = [:]
    /// The model's live rows by the bucket value they hold.
    private var byBucket: [BucketKey: BucketRows] = [:]
    /// Rows a page covering their seq did not show, with the earliest such pull: the row's next
    /// write came before it.
    var absent: [RowKey: Int] = [:]
    var pending: [Pending] = []
    var identified: [SequenceNumber: Identified] = [:]
    /// Recorded push writes whose seq an answer showed, in recording order.
    var pinned: [(exchange: Int, seq: SequenceNumber)] = []
    var marks: [Mark] = []
    /// Push exchanges that wrote something, ascending.
    var writers: [Int] = []
    /// The pull and push exchanges a replay sends, ascending.
    var sent: [Int] = []
    /// Mutation ids whose effect is in the model (a replayed id writes nothing again).
    var applied = Set<String>()
    /// What each applied update overwrote, by mutation id, until a conflict journal names it.
    var overwrites: [String: Overwrite] = [:]
    var notInferable: [Int: String] = [:]
    /// Exchanges answered without RESET_REQUIRED, by the schema version they carried.
    var answeredVersions: [Int: [Int]] = [:]
    /// A row seen per table: the shape of a row made for the purpose.
    var templates: [String: JSONObject] = [:]
    /// The highest high-water a complete page has answered so far.
    var highWater = SequenceNumber.zero
    /// Clients whose last recorded cursor had holes.
    var holed = Set<String>()
    /// Each client's last page that said `has_more`: its exchange and the cursor it answered.
    var openPages: [String: (exchange: Int, cursor: String)] = [:]
    /// Recorded seqs a page's `has_more` proves were written before that page: the first entry
    /// of the page that continues it, with the earlier page's exchange.
    var writtenBefore: [(seq: SequenceNumber, exchange: Int)] = []

    /// Starts with nothing seen.
    public init() {}

    /// Takes one exchange, in recording order. Exchanges a replay does not send (plain HTTP,
    /// another profile's routes, answers the recording proxy gave itself, recorded 401s) teach
    /// nothing about the service and are ignored.
    public mutating func observe(_ exchange: RecordedExchange) {
        guard exchange.rpc == "pull" || exchange.rpc == "push", exchange.unreplayableReason == nil else { return }
        inference.observe(exchange)
        sent.append(exchange.number)
        let answered = (200..<300).contains(exchange.status)
        if exchange.rpc == "push" {
            if answered, let response = exchange.response.objectValue {
                observePush(exchange, response: response)
            } else if exchange.status == 0 {
                observeLostPush(exchange)
            }
        } else if answered, let response = exchange.response.objectValue {
            observePull(exchange, response: response)
        }
    }

    /// The world: the configuration, and every inferred change placed before the exchange that
    /// needs it.
    public func world() -> RecordedWorld {
        var placement = self
        return placement.place()
    }

    /// The bucket column of a table in the configuration seen so far.
    func bucketColumn(of table: String) -> String {
        inference.config.tables.first { $0.name == table }?.bucketColumn ?? ServerInference.defaultBucketColumn
    }

    /// The key columns of a table in the configuration seen so far.
    func keyColumns(of table: String) -> [String] {
        inference.config.tables.first { $0.name == table }?.keyColumns ?? ["id"]
    }

    /// Adds an inferred change; returns its index.
    @discardableResult
    mutating func infer(_ change: Pending) -> Int {
        pending.append(change)
        return pending.count - 1
    }

    /// Adds another actor's change of a row, placed before exchange `number` and after the row's
    /// last recorded push (or `after`); returns its index.
    @discardableResult
    mutating func infer(
        _ operation: WorldChange.Operation, of key: RowKey, before number: Int, reason: String, after: Int? = nil, hlc: String? = nil,
        create: JSONObject? = nil, early: Bool = false
    ) -> Int {
        var floor = 0
        if case .push(let last)? = rows[key]?.writer { floor = last }
        return infer(
            Pending(
                change: WorldChange(operation, table: key.table, pk: key.pk, reason: reason, hlc: hlc), seq: nil, after: after ?? floor,
                before: number, create: create, early: early))
    }

    /// Stores a row's new state, keeping the bucket index of live rows.
    mutating func store(_ key: RowKey, _ model: ModelRow) {
        let column = bucketColumn(of: key.table)
        if let old = rows[key], old.live, let value = old.columns[column] {
            let bucket = BucketKey(table: key.table, value: value)
            byBucket[bucket]?.remove(key, at: old.seq)
            if byBucket[bucket]?.isEmpty == true { byBucket[bucket] = nil }
        }
        if model.live, let value = model.columns[column] {
            byBucket[BucketKey(table: key.table, value: value), default: BucketRows()].insert(key, at: model.seq)
        }
        rows[key] = model
    }

    /// The live rows whose bucket column holds `value`.
    func rows(in table: String, bucket value: JSONValue) -> BucketRows? { byBucket[BucketKey(table: table, value: value)] }

    /// A new write of a row: if a page already proved the row's previous state gone, this write
    /// came before that page.
    mutating func wrote(_ key: RowKey, _ writer: Writer) {
        guard let page = absent.removeValue(forKey: key) else { return }
        switch writer {
        case .world(let index): pending[index].before = min(pending[index].before, page)
        case .push(let number):
            if number >= page {
                notInferable[page] =
                    notInferable[page]
                    ?? "the page leaves out \(Self.label(key)), which exchange \(number) rewrote only after it (exchanges overlapped on the recorded service)"
            }
        }
    }

    /// Records which write made a seq, unless one already did.
    mutating func identify(_ seq: SequenceNumber, _ writer: Writer, shownBy exchange: Int) {
        guard identified[seq] == nil else { return }
        identified[seq] = Identified(writer: writer, shownBy: exchange)
        switch writer {
        case .push(let number): pinned.append((number, seq))
        case .world(let index): if pending[index].seq == nil { pending[index].seq = seq }
        }
    }

    /// "todos/…0009".
    static func label(_ key: RowKey) -> String { "\(key.table)/…\(key.pk.suffix(4))" }
}
