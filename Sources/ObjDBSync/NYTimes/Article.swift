import Foundation
import ObjDB

/// A document of the NYT Article Search API v2, as the NYT importer stores it.
///
/// ```swift
/// let latest = try db.view().objects(Article.self).sorted(byKeyPath: "publishedAt", ascending: false)
/// for article in latest.limit(5) { print(article.headline, article.byline ?? "") }
/// ```
///
/// The type and property names are a contract that scripts and `objdb-inspect` users rely on. The
/// mapping is ``jsonMapping``: every doc shape the API has sent since 2015 imports.
public final class Article: Object {
    /// The API's `_id`: a 24-digit hex ID (until 2019) or an `nyt://article/…` URI (since).
    @Persisted(primaryKey: true) public var id = ""
    /// The article's page.
    @Persisted public var webURL = ""
    /// The main headline.
    @Persisted(indexed: .fullText) public var headline = ""
    /// The first paragraph.
    @Persisted(indexed: .fullText) public var leadParagraph: String?
    /// The abstract.
    @Persisted(indexed: .fullText) public var abstract: String?
    /// The snippet search results show.
    @Persisted public var snippet: String?
    /// When it was published.
    @Persisted(indexed: true) public var publishedAt: Date?
    /// The section (`section_name`).
    @Persisted public var section: String?
    /// The subsection.
    @Persisted public var subsection: String?
    /// The desk it came from.
    @Persisted public var newsDesk: String?
    /// `article`, `blogpost`, `multimedia`, …
    @Persisted public var documentType: String?
    /// `News`, `Op-Ed`, `Review`, …
    @Persisted public var typeOfMaterial: String?
    /// The byline as printed: `By JANE DOE`.
    @Persisted public var byline: String?
    /// The word count (sent as a number or a string).
    @Persisted public var wordCount = 0
    /// The source: `The New York Times`, `AP`, …
    @Persisted public var source: String?
    /// The `nyt://` URI, when the API gave one beside a hex ID.
    @Persisted public var uri: String?
    /// The keywords, in the API's order.
    @Persisted public var keywords: List<ArticleKeyword>
    /// The images (each crop of each image), in the API's order.
    @Persisted public var multimedia: List<ArticleMultimedia>
    /// The searches whose results hold this article.
    @Persisted(originProperty: "articles") public var searches: LinkingObjects<ArticleSearch>
}

/// A keyword of an article.
public final class ArticleKeyword: EmbeddedObject {
    /// The kind of keyword: `subject`, `persons`, `glocations`, `organizations`, …
    @Persisted public var name = ""
    /// The keyword.
    @Persisted public var value = ""
    /// Its rank among the article's keywords.
    @Persisted public var rank = 0
    /// Whether the API marked it major (`is_major` or `major`: `Y`).
    @Persisted public var isMajor = false
}

/// One image of an article, in one crop.
public final class ArticleMultimedia: EmbeddedObject {
    /// The image's absolute URL (the API's relative ones are resolved against nytimes.com).
    @Persisted public var url = ""
    /// `image`, …
    @Persisted public var type: String?
    /// `xlarge`, `thumbnail`, `photo`, …
    @Persisted public var subtype: String?
    /// The crop: `articleLarge`, `thumbStandard`, or (2025) `default` and `thumbnail`.
    @Persisted public var cropName: String?
    /// The width in pixels.
    @Persisted public var width = 0
    /// The height in pixels.
    @Persisted public var height = 0
    /// The caption.
    @Persisted public var caption: String?
    /// The credit.
    @Persisted public var credit: String?
}
