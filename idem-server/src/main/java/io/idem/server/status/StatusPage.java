package io.idem.server.status;

import io.idem.core.status.Standing;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The public status page: plain HTML, no script, no style of its own, every value escaped. */
final class StatusPage {
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private StatusPage() {}

    static String render(StatusBoard.Board board) {
        StringBuilder html = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Service status</title>
                </head>
                <body>
                <main>
                <h1>Service status</h1>
                """);
        html.append("<p id=\"overall\" data-status=\"")
                .append(board.overall().level().wire())
                .append("\"><strong>")
                .append(headline(board.overall()))
                .append("</strong>")
                .append(since(board.overall()))
                .append("</p>\n");
        html.append("""
                <table>
                <caption>Each service and how it stands</caption>
                <thead><tr><th scope="col">Service</th><th scope="col">Status</th><th scope="col">Since</th></tr></thead>
                <tbody>
                """);
        for (StatusBoard.Service s : board.services()) {
            String name = s.lane()
                    .map(lane -> escape(lane) + " · " + escape(s.kind()))
                    .orElse(escape(s.kind()));
            html.append("<tr data-lane=\"")
                    .append(escape(s.lane().orElse("")))
                    .append("\" data-kind=\"")
                    .append(escape(s.kind()))
                    .append("\" data-status=\"")
                    .append(s.standing().level().wire())
                    .append("\"><th scope=\"row\">")
                    .append(name)
                    .append("</th><td>")
                    .append(label(s.standing()))
                    .append("</td><td>")
                    .append(s.standing().since().map(WHEN::format).orElse("—"))
                    .append("</td></tr>\n");
        }
        html.append("</tbody>\n</table>\n<p>Updated ")
                .append(WHEN.format(board.at()))
                .append(
                        ". Reload the page for news. The same facts as JSON: <a href=\"/v1/status\">/v1/status</a>.</p>\n")
                .append("</main>\n</body>\n</html>\n");
        return html.toString();
    }

    /** The level in words with a shape, never by colour alone. */
    private static String label(Standing standing) {
        return switch (standing.level()) {
            case OPERATIONAL -> "✓ operational";
            case DEGRADED -> "⚠ degraded";
            case DOWN -> "✕ down";
        };
    }

    private static String headline(Standing standing) {
        return switch (standing.level()) {
            case OPERATIONAL -> "✓ All services are operational.";
            case DEGRADED -> "⚠ Some services are degraded or down.";
            case DOWN -> "✕ Services are down.";
        };
    }

    private static String since(Standing standing) {
        return standing.since().map(at -> " Since " + WHEN.format(at) + ".").orElse("");
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char ch : text.toCharArray()) {
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }
}
