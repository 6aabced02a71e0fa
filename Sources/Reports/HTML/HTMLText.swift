/// Text made safe for an HTML page: every character that could open markup, end an attribute
/// or start an entity is written as an entity, so case names, messages and bodies from a hostile
/// recording or server show as text and never run.
enum HTMLText {
    /// Escapes `&`, `<`, `>`, `"` and `'`, for text and for double- or single-quoted attributes.
    /// - Returns: the escaped text.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text cut to at most `limit` characters, with an ellipsis when it was cut.
    /// - Parameters:
    ///   - text: the text.
    ///   - limit: the most characters kept.
    /// - Returns: the shortened text.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(max(0, limit - 1))) + "…" : text
    }

    /// A token safe in a `class` or `data-` attribute list: letters, digits, `-`, `_` and `.`
    /// kept, anything else turned into `_`.
    /// - Parameter text: the text, e.g. a rule id.
    /// - Returns: the token.
    static func token(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                        ? scalar : "_"
                }))
    }
}
