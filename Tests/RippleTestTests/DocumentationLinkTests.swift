import Foundation
import Testing

/// Keeps the links of `README.md` and `docs/**/*.md` valid: every relative link
/// and image points to an existing file, and every `#anchor` to a heading of
/// the page it names.
@Suite("Documentation links") struct DocumentationLinkTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `README.md` and every Markdown file under `docs/`.
    static func pages() -> [URL] {
        var pages = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        if let files = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
            for case let file as URL in files where file.pathExtension == "md" {
                pages.append(file)
            }
        }
        return pages.sorted { $0.path < $1.path }
    }

    @Test("every relative link and image in the docs resolves")
    func linksResolve() throws {
        let pages = Self.pages()
        #expect(pages.count > 3)
        var checked = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Markdown.links(in: text) {
                guard !link.target.contains("://"), !link.target.hasPrefix("mailto:") else { continue }
                checked += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let target = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                let name = page.path.replacingOccurrences(of: Self.root.path + "/", with: "")
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(name):\(link.line): \(link.target) does not exist")
                    continue
                }
                if let anchor, target.pathExtension == "md" {
                    let headings = Markdown.anchors(in: try String(contentsOf: target, encoding: .utf8))
                    #expect(headings.contains(anchor), "\(name):\(link.line): no heading for #\(anchor) in \(target.lastPathComponent)")
                }
            }
        }
        #expect(checked > 50)
    }

    @Test("every operator page is in the index and has the guide's sections")
    func operatorPages() throws {
        let directory = Self.root.appendingPathComponent("docs/operators")
        let index = try String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8)
        let indexed = Set(Markdown.links(in: index).map { String($0.target.split(separator: "#")[0]) })
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        #expect(pages.count >= 40)
        for page in pages {
            #expect(indexed.contains(page), "\(page) is not in docs/operators/README.md")
            let text = try String(contentsOf: directory.appendingPathComponent(page), encoding: .utf8)
            for section in ["## Coming from RxSwift", "## See also"] {
                #expect(text.contains(section), "\(page) has no \"\(section)\" section")
            }
            #expect(text.contains("```\n") || text.contains(".svg)"), "\(page) has neither a marble diagram nor a picture")
        }
    }

    @Test("every marble picture is shown somewhere in the docs")
    func picturesAreUsed() throws {
        var shown = Set<String>()
        for page in Self.pages() {
            for link in Markdown.links(in: try String(contentsOf: page, encoding: .utf8)) where link.target.hasSuffix(".svg") {
                shown.insert(URL(fileURLWithPath: link.target).lastPathComponent)
            }
        }
        let pictures = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs/images/marbles").path)
            .filter { $0.hasSuffix(".svg") }
        for picture in pictures {
            #expect(shown.contains(picture), "docs/images/marbles/\(picture) is not shown by any page")
        }
    }

    @Test("the link finder skips code and finds links and images")
    func linkFinder() {
        let text = """
            # Title
            See [map](operators/map.md) and ![a picture](images/x.svg "title").
            `[not a link](nowhere.md)`
            ```
            [not a link either](nowhere.md)
            ```
            [anchor](#title)
            """
        #expect(Markdown.links(in: text).map(\.target) == ["operators/map.md", "images/x.svg", "#title"])
        #expect(Markdown.links(in: text).map(\.line) == [2, 2, 7])
        #expect(Markdown.anchors(in: "## What `share` does, and when?\n### Hot & cold") == ["what-share-does-and-when", "hot--cold"])
    }
}

/// Just enough Markdown to find links and headings.
enum Markdown {
    struct Link: Equatable {
        var target: String
        var line: Int
    }

    /// The targets of `[text](target)` and `![alt](target "title")`, outside
    /// fenced code blocks and code spans.
    static func links(in text: String) -> [Link] {
        var links: [Link] = []
        var inFence = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            let characters = Array(withoutCodeSpans(line))
            var position = 0
            while position < characters.count {
                guard characters[position] == "]", position + 1 < characters.count, characters[position + 1] == "(" else {
                    position += 1
                    continue
                }
                var end = position + 2
                var depth = 1
                while end < characters.count {
                    if characters[end] == "(" { depth += 1 }
                    if characters[end] == ")" { depth -= 1; if depth == 0 { break } }
                    end += 1
                }
                guard end < characters.count else { break }
                let inside = String(characters[(position + 2)..<end]).trimmingCharacters(in: .whitespaces)
                let target = inside.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                if !target.isEmpty {
                    links.append(Link(target: target, line: index + 1))
                }
                position = end + 1
            }
        }
        return links
    }

    /// GitHub's anchors for the headings of `text`: lower case, punctuation
    /// removed, spaces turned into hyphens.
    static func anchors(in text: String) -> Set<String> {
        var anchors = Set<String>()
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = title.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            }
            anchors.insert(String(slug))
        }
        return anchors
    }

    /// `line` with the content of `code spans` blanked out.
    private static func withoutCodeSpans(_ line: String) -> String {
        var result = ""
        var inCode = false
        for character in line {
            if character == "`" {
                inCode.toggle()
                result.append(" ")
            } else {
                result.append(inCode ? " " : character)
            }
        }
        return result
    }
}
