import JSON

extension WriteCheckpointAnswer {
    /// The answer as `/write-checkpoint2.json` writes it: `{"data": {"write_checkpoint": "N"}}`.
    public var json: JSONValue { MemberReader.envelope("write_checkpoint", .string(writeCheckpoint.description)) }
}

extension CheckpointRequestAnswer {
    /// The answer as `/sync/checkpoint-request` writes it: `{"data": {"checkpoint_request_id": "N"}}`.
    public var json: JSONValue { MemberReader.envelope("checkpoint_request_id", .string(id.description)) }
}
