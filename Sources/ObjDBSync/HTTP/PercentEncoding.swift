/// Percent-encodes `text` as RFC 3986 (and OAuth 1.0a, RFC 5849 §3.6) require: every byte of its
/// UTF-8 but the unreserved `A–Z a–z 0–9 - . _ ~` becomes `%XX`, in upper-case hex.
func percentEncoded(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    let hex = Array("0123456789ABCDEF")
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            out.append("%")
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
    }
    return out
}

/// `parameters` as a query string, each name and value percent-encoded, in the given order.
func queryString(_ parameters: [(name: String, value: String)]) -> String {
    parameters.map { percentEncoded($0.name) + "=" + percentEncoded($0.value) }.joined(separator: "&")
}
