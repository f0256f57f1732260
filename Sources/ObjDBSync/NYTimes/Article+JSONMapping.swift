import ObjDB

extension Article {
    /// How an Article Search doc maps, whatever its era: hex or `nyt://` IDs, `blog` as a list, an
    /// object or absent, `word_count` as a string or a number, a `null` byline, keywords with
    /// `is_major` or `major`, and `multimedia` as a list or (since 2025) one object. A doc without
    /// `_id` (a search with `fl` leaving it out) is skipped.
    public static let jsonMapping: JSONMapping<Article> = JSONMapping(Article.self, missingIdentity: .skip) {
        $0.identity(\.id, "_id")
        $0.map(\.webURL, "web_url", .url)
        $0.map(\.headline, "headline.main", JSONTransformer.string.replacingNull(with: ""))
        $0.map(\.leadParagraph, "lead_paragraph")
        $0.map(\.abstract, "abstract")
        $0.map(\.snippet, "snippet")
        $0.map(\.publishedAt, "pub_date", .iso8601)
        $0.map(\.section, "section_name")
        $0.map(\.subsection, ["subsection_name", "subsectoinName"])
        $0.map(\.newsDesk, ["news_desk", "new_desk"])
        $0.map(\.documentType, "document_type")
        $0.map(\.typeOfMaterial, "type_of_material")
        $0.map(\.byline, "byline.original")
        $0.map(\.wordCount, "word_count", .integerOrString)
        $0.map(\.source, "source")
        $0.map(\.uri, "uri")
        $0.map(\.keywords, "keywords", using: ArticleKeyword.jsonMapping)
        $0.map(\.multimedia, "multimedia", with: ArticleMultimedia.list(from:session:))
    }
}

extension ArticleKeyword {
    /// How a keyword maps; `rank` as a number or a string, `is_major` or `major` as `Y`/`N`.
    public static let jsonMapping: JSONMapping<ArticleKeyword> = JSONMapping(ArticleKeyword.self) {
        $0.map(\.name, "name")
        $0.map(\.value, "value")
        $0.map(\.rank, "rank", .integerOrString)
        $0.map(\.isMajor, ["is_major", "major"], JSONTransformer.yesOrNo.replacingNull(with: false))
    }
}

extension ArticleMultimedia {
    /// How an element of a `multimedia` list maps (one crop of an image).
    public static let jsonMapping: JSONMapping<ArticleMultimedia> = JSONMapping(ArticleMultimedia.self) {
        $0.map(\.url, "url", .url(relativeTo: "https://www.nytimes.com/"))
        $0.map(\.type, "type")
        $0.map(\.subtype, ["subtype", "subType"])
        $0.map(\.cropName, "crop_name")
        $0.map(\.width, "width", .integerOrString)
        $0.map(\.height, "height", .integerOrString)
        $0.map(\.caption, "caption")
        $0.map(\.credit, "credit")
    }

    /// How one image of the 2025 `multimedia` object (`default`, `thumbnail`) maps.
    static let imageMapping: JSONMapping<ArticleMultimedia> = JSONMapping(ArticleMultimedia.self) {
        $0.map(\.url, "url", .url(relativeTo: "https://www.nytimes.com/"))
        $0.map(\.width, "width", .integerOrString)
        $0.map(\.height, "height", .integerOrString)
    }

    /// The images of a `multimedia` value: a list of crops, or the 2025 object with a caption, a
    /// credit and `default` and `thumbnail` images (each becomes one element, named by its crop).
    static func list(from json: JSONValue, session: JSONImportSession) throws -> List<ArticleMultimedia> {
        switch json.kind {
        case .null:
            return List()
        case .array:
            return List(try json.elements.map { try session.makeEmbedded($0, using: jsonMapping) })
        case .object:
            let text = String?.jsonTransformer
            let caption = try json["caption"].map(text.transform) ?? nil
            let credit = try json["credit"].map(text.transform) ?? nil
            var images: [ArticleMultimedia] = []
            for crop in ["default", "thumbnail"] {
                guard let image = json[crop], !image.isNull else { continue }
                let media = try session.makeEmbedded(image, using: imageMapping)
                media.type = "image"
                media.cropName = crop
                media.caption = caption
                media.credit = credit
                images.append(media)
            }
            return List(images)
        default:
            throw SyncError(
                .unexpectedValue, at: json.path, "expected a list of multimedia or a multimedia object, found \(json)")
        }
    }
}

extension JSONTransformer where Value == Bool {
    /// `"Y"` or `"N"` (any case), or `true` or `false`.
    static var yesOrNo: Self {
        Self(expecting: "\"Y\" or \"N\"") { json in
            if let bool = json.boolValue { return bool }
            switch json.stringValue?.uppercased() {
            case "Y": return true
            case "N": return false
            default: return nil
            }
        }
    }
}
