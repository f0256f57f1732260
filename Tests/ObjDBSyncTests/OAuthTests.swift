import Foundation
import Testing

@testable import ObjDBSync

/// Twitter's worked example, "Creating a signature" (developer.twitter.com, OAuth 1.0a).
private let example = OAuth1Credentials(
    consumerKey: Secret("xvz1evFS4wEEPTGEFPHBog"),
    consumerSecret: Secret("kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"),
    token: Secret("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"),
    tokenSecret: Secret("LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"))
private let exampleRequest = HTTPRequest(
    method: "POST", url: URL(string: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true")!,
    headers: ["Content-Type": "application/x-www-form-urlencoded"],
    body: Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8))
private let nonce = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"
private let timestamp: Int64 = 1_318_622_958

@Suite("OAuth 1.0a")
struct OAuthTests {
    @Test func theSignatureOfTwittersExampleIsTheDocumentedOne() {
        let signature = OAuth1Signer(credentials: example).signature(
            for: exampleRequest, nonce: nonce, timestamp: timestamp)
        #expect(signature == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    }

    @Test func theBaseStringOfTwittersExampleIsTheDocumentedOne() {
        let base = OAuth1Signer(credentials: example).signatureBaseString(
            for: exampleRequest, nonce: nonce, timestamp: timestamp)
        #expect(
            base
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26"
                + "oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"
                + "%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-"
                + "GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B"
                + "%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521")
    }

    @Test func theHeaderCarriesTheSortedEncodedParametersAndSignature() {
        let header = OAuth1Signer(credentials: example).authorization(
            for: exampleRequest, nonce: nonce, timestamp: timestamp)
        #expect(
            header
                == "OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", oauth_nonce=\"\(nonce)\", "
                + "oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\", oauth_signature_method=\"HMAC-SHA1\", "
                + "oauth_timestamp=\"1318622958\", oauth_token=\"370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb\", "
                + "oauth_version=\"1.0\"")
    }

    @Test func hmacSHA1MatchesRFC2202() {
        // RFC 2202, test case 2.
        let digest = hmacSHA1(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    @Test func percentEncodingLeavesOnlyUnreservedCharacters() {
        #expect(percentEncoded("Ladies + Gentlemen, ☃!~-._*") == "Ladies%20%2B%20Gentlemen%2C%20%E2%98%83%21~-._%2A")
    }

    @Test func aPortOtherThanTheDefaultIsPartOfTheBaseURL() {
        #expect(
            OAuth1Signer.baseURL(of: URL(string: "HTTP://127.0.0.1:8080/1.1/x.json?a=b")!)
                == "http://127.0.0.1:8080/1.1/x.json")
        #expect(
            OAuth1Signer.baseURL(of: URL(string: "https://API.twitter.com:443/1.1/x.json")!)
                == "https://api.twitter.com/1.1/x.json")
    }

    @Test func aBearerTokenIsSentAsIs() {
        let credentials = TwitterCredentials.app(bearerToken: Secret("AAAA%2FBBB"))
        #expect(credentials.authorization(for: exampleRequest) == "Bearer AAAA%2FBBB")
    }
}
