package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The chart renderer's SVG, parsed back as XML and read the way a browser or a screen reader would. */
class SvgChartTest {
    private static final List<Chart.Bucket> HOURS = List.of(
            new Chart.Bucket("09:00", "2026-01-05T09:00:00Z"),
            new Chart.Bucket("10:00", "2026-01-05T10:00:00Z"),
            new Chart.Bucket("11:00", "2026-01-05T11:00:00Z"));

    @Test
    void aLineChartNamesItselfAndEverySeriesAndCarriesEachValueAsDataAndWords() {
        Document svg = parse(SvgChart.render(new Chart(
                "latency",
                "p95 latency per provider",
                "p95 latency per hour.",
                Chart.Kind.LINE,
                Chart.Unit.MILLIS,
                HOURS,
                List.of(series("primary", "200", null, "1500"), series("backup", "400", "350", "300")))));

        Element root = svg.getDocumentElement();
        assertThat(root.getAttribute("role")).isEqualTo("img");
        assertThat(root.getAttribute("aria-labelledby")).isEqualTo("chart-latency-title chart-latency-desc");
        assertThat(root.getAttribute("data-chart")).isEqualTo("latency");
        assertThat(byId(svg, "title", "chart-latency-title").getTextContent()).isEqualTo("p95 latency per provider");
        assertThat(byId(svg, "desc", "chart-latency-desc").getTextContent()).isEqualTo("p95 latency per hour.");
        assertThat(texts(svg, "g", "legend-item")).containsExactly("primary", "backup");

        Element primary = series(svg, "primary");
        assertThat(children(primary, "circle"))
                .extracting(c -> c.getAttribute("data-bucket") + "=" + c.getAttribute("data-value"))
                .containsExactly("2026-01-05T09:00:00Z=200", "2026-01-05T11:00:00Z=1500");
        assertThat(children(primary, "circle"))
                .extracting(Element::getTextContent)
                .containsExactly("primary, 09:00: 200 ms", "primary, 11:00: 1.5 s");
        assertThat(children(primary, "path").getFirst().getAttribute("d"))
                .as("the line breaks where a bucket has no value")
                .matches("M[0-9. ]+ M[0-9. ]+");
        assertThat(children(series(svg, "backup"), "path").getFirst().getAttribute("d"))
                .matches("M[0-9. ]+ L[0-9. ]+ L[0-9. ]+");
        assertThat(texts(svg, "g", "axis-x")).containsExactly("09:00", "10:00", "11:00");
        assertThat(texts(svg, "g", "axis-y")).containsExactly("0 ms", "500 ms", "1 s", "1.5 s", "2 s");
    }

    @Test
    void barsStandOnTheBaselineAndTheTallestReachesItsShareOfTheAxis() {
        Document svg = parse(SvgChart.render(new Chart(
                "spend",
                "Spend",
                "Billed spend.",
                Chart.Kind.BARS,
                Chart.Unit.USD,
                HOURS,
                List.of(series("primary", "0.04", "0.08", null), series("backup", "0.052", null, "0")))));

        List<Element> primary = children(series(svg, "primary"), "rect");
        assertThat(primary).extracting(r -> r.getAttribute("data-value")).containsExactly("0.04", "0.08");
        assertThat(primary)
                .extracting(r -> r.getTextContent())
                .containsExactly("primary, 09:00: $0.04", "primary, 10:00: $0.08");
        double baseline = Double.parseDouble(children(svg.getDocumentElement(), "g").stream()
                .filter(g -> g.getAttribute("class").contains("axis-y"))
                .flatMap(g -> children(g, "line").stream())
                .filter(l -> l.getAttribute("class").equals("baseline"))
                .findFirst()
                .orElseThrow()
                .getAttribute("y1"));
        for (Element bar : primary) {
            double bottom = Double.parseDouble(bar.getAttribute("y")) + Double.parseDouble(bar.getAttribute("height"));
            assertThat(bottom).isCloseTo(baseline, org.assertj.core.data.Offset.offset(0.2));
        }
        assertThat(height(primary.get(1)) / height(primary.get(0)))
                .isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.02));
        assertThat(texts(svg, "g", "axis-y")).containsExactly("$0", "$0.02", "$0.04", "$0.06", "$0.08");
        assertThat(texts(svg, "g", "legend-item")).containsExactly("primary", "backup");
    }

    @Test
    void hostileNamesAreTextNeverMarkup() {
        String name = "<script>alert('x')</script> & \"co\"";
        String drawn = SvgChart.render(new Chart(
                "x\"><script>",
                name,
                name,
                Chart.Kind.LINE,
                Chart.Unit.COUNT,
                HOURS,
                List.of(series(name, "1", "2", "3"))));
        Document svg = parse(drawn);
        assertThat(svg.getElementsByTagName("script").getLength()).isZero();
        assertThat(drawn).doesNotContain("<script").doesNotContain("style=");
        assertThat(texts(svg, "g", "legend-item")).containsExactly(name);
        assertThat(svg.getDocumentElement().getAttribute("data-chart")).isEqualTo("x\"><script>");
    }

    @Test
    void anEmptyWindowSaysSoAndAPercentageAxisAlwaysReachesAHundred() {
        Document svg = parse(SvgChart.render(new Chart(
                "fallbacks",
                "Fallback rate",
                "Share of calls that needed a second attempt.",
                Chart.Kind.LINE,
                Chart.Unit.PERCENT,
                HOURS,
                List.of(series("jobs", null, null, null)))));
        assertThat(texts(svg, "text", "empty")).containsExactly("Nothing in this window yet");
        assertThat(texts(svg, "g", "axis-y")).containsExactly("0 %", "25 %", "50 %", "75 %", "100 %");
    }

    @ParameterizedTest(name = "{0} up to {1} -> steps of {2}")
    @CsvSource({
        "USD, 0, 0.01",
        "USD, 0.052, 0.02",
        "USD, 0.13, 0.05",
        "USD, 7.5, 2",
        "COUNT, 0, 1",
        "COUNT, 7, 2",
        "COUNT, 9, 5",
        "COUNT, 41, 20",
        "MILLIS, 30, 10",
        "MILLIS, 1500, 500",
        "MILLIS, 950, 250",
        "PERCENT, 7, 25"
    })
    void theAxisStepsByRoundNumbersThatReachTheLargestValue(Chart.Unit unit, String max, String step) {
        Chart chart = new Chart("c", "t", "d", Chart.Kind.LINE, unit, HOURS, List.of(series("s", "0", max, null)));
        assertThat(SvgChart.tickStep(chart)).isEqualByComparingTo(step);
    }

    @ParameterizedTest(name = "{0} {1} reads {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "USD | 0 | $0",
                "USD | 0.2 | $0.20",
                "USD | 0.052 | $0.052",
                "USD | 0.0025 | $0.0025",
                "USD | 0.000012 | $0.000012",
                "USD | 0.0000001 | $0",
                "USD | 12.345 | $12.35",
                "PERCENT | 57.14 | 57.1 %",
                "PERCENT | 100 | 100 %",
                "MILLIS | 120 | 120 ms",
                "MILLIS | 1500 | 1.5 s",
                "COUNT | 3 | 3"
            })
    void valuesReadAsPeopleWriteThem(Chart.Unit unit, String value, String words) {
        assertThat(unit.format(new BigDecimal(value))).isEqualTo(words);
    }

    private static Chart.Series series(String name, String... values) {
        List<BigDecimal> out = new ArrayList<>();
        Arrays.stream(values).forEach(v -> out.add(v == null ? null : new BigDecimal(v)));
        return new Chart.Series(name, out);
    }

    private static double height(Element bar) {
        return Double.parseDouble(bar.getAttribute("height"));
    }

    private static Document parse(String svg) {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError("not well-formed SVG: " + svg, e);
        }
    }

    private static Element byId(Document svg, String tag, String id) {
        NodeList nodes = svg.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.getAttribute("id").equals(id)) {
                return e;
            }
        }
        throw new AssertionError("no <" + tag + " id=" + id + ">");
    }

    private static Element series(Document svg, String name) {
        NodeList groups = svg.getElementsByTagName("g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (g.getAttribute("class").startsWith("series ")
                    && g.getAttribute("data-series").equals(name)) {
                return g;
            }
        }
        throw new AssertionError("no series " + name);
    }

    /** The text of every {@code <text>} inside the elements of {@code tag} whose class holds {@code cls}. */
    private static List<String> texts(Document svg, String tag, String cls) {
        List<String> out = new ArrayList<>();
        NodeList nodes = svg.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (Arrays.asList(e.getAttribute("class").split(" ")).contains(cls)) {
                if (tag.equals("text")) {
                    out.add(e.getTextContent());
                } else {
                    NodeList inner = e.getElementsByTagName("text");
                    for (int j = 0; j < inner.getLength(); j++) {
                        out.add(inner.item(j).getTextContent());
                    }
                }
            }
        }
        return out;
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && e.getLocalName().equals(tag)) {
                out.add(e);
            }
        }
        return out;
    }
}
