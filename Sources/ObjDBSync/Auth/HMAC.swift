import CCrypto
import Foundation

/// HMAC-SHA1 of `message` under `key`, by libcrypto (Debian's libssl-dev): 20 bytes.
func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let result = key.withUnsafeBytes { keyBytes in
        message.withUnsafeBytes { messageBytes in
            HMAC(
                EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count),
                messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &digest, &length)
        }
    }
    // HMAC fails only when libcrypto cannot allocate or SHA-1 is missing: nothing a caller could fix.
    precondition(result != nil, "libcrypto's HMAC-SHA1 failed")
    return Array(digest.prefix(Int(length)))
}
