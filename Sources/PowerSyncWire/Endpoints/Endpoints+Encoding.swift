import KizunaWire

extension WriteCheckpointAnswer {
    /// The answer as `/write-checkpoint2.json` writes it: `{"write_checkpoint": "N"}`.
    public var json: JSONValue { .object(JSONObject(pairs: [("write_checkpoint", .string(writeCheckpoint.description))])) }
}

extension CheckpointRequestAnswer {
    /// The answer as `/sync/checkpoint-request` writes it: `{"checkpoint_request_id": "N"}`.
    public var json: JSONValue { .object(JSONObject(pairs: [("checkpoint_request_id", .string(id.description))])) }
}
