enum HelpText {
    static func row(_ left: String, _ right: String) -> String {
        let padded = "  " + left
        if padded.count >= 26 { return padded + "\n" + String(repeating: " ", count: 26) + right }
        return padded + String(repeating: " ", count: 26 - padded.count) + right
    }
}
