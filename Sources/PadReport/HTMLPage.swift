/// The page skeleton and table helpers shared by `report.html`, `folds.html` and the compare
/// page: one self-contained document (inline CSS, no scripts, nothing fetched).
package enum HTMLPage {
    static let css = """
        body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px \
        auto;max-width:1240px;color:#222;font-size:14px;padding:0 12px}
        h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:30px;border-bottom:1px solid #ddd}
        .lead{font-size:15px;margin:6px 0 14px}
        table{border-collapse:collapse;margin:8px 0;font-size:12.5px}th,td{border:1px \
        solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
        th{background:#f4f4f4}td.num{text-align:right;white-space:nowrap}\
        .meta{color:#555}.ci{color:#555;font-size:11.5px}
        .verdict td{font-size:13.5px}.verdict b{font-size:15px}
        .flag{display:inline-block;background:#fff3cd;border:1px solid \
        #e0c060;border-radius:3px;padding:0 5px;margin:1px 0;font-size:12px}
        .bad{background:#fde2e1;border-color:#d9534f}.ok{background:#e3f4e1;border-color:#5cb85c}
        .howto{background:#f5f8fc;border:1px solid \
        #c9d8ea;border-radius:4px;padding:6px 14px;margin:14px 0;font-size:13px}
        .howto h3{font-size:14px;margin:6px 0}.howto ul{margin:4px 0;padding-left:20px}
        .leftout{border:2px solid #c0392b;background:#fdecea;padding:4px 12px;margin:8px 0}
        .plots{display:flex;flex-wrap:wrap;gap:10px}svg{background:#fff;border:1px solid #eee}
        """

    package static func document(title: String, body: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>"
            + "\(e(title))</title><style>\(css)</style></head>\n<body>\n\(body)</body></html>\n"
    }

    static func e(_ s: String) -> String { SVGPlot.escape(s) }

    /// A table of plain-text cells (escaped here).
    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        rawTable(header, rows.map { $0.map(e) }, numeric: numeric)
    }

    /// A table whose cells are already HTML.
    static func rawTable(_ header: [String], _ rows: [[String]], numeric: Set<Int> = [], cssClass: String? = nil)
        -> String
    {
        var html =
            "<table\(cssClass.map { " class=\"\($0)\"" } ?? "")><thead><tr>"
            + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows {
            html +=
                "<tr>"
                + row.enumerated().map {
                    numeric.contains($0.offset) ? "<td class=\"num\">\($0.element)</td>" : "<td>\($0.element)</td>"
                }.joined() + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    static func flag(_ text: String, _ kind: String = "") -> String {
        "<span class=\"flag\(kind.isEmpty ? "" : " " + kind)\">\(e(text))</span>"
    }
}
