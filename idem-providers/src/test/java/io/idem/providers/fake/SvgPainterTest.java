package io.idem.providers.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SvgPainterTest {

    @Test
    void theSameInputAlwaysPaintsTheSameBytes() {
        assertThat(SvgPainter.paint("a cat", "64x64", 0)).isEqualTo(SvgPainter.paint("a cat", "64x64", 0));
    }

    @Test
    void promptSizeAndIndexEachChangeTheImage() {
        byte[] base = SvgPainter.paint("a cat", "64x64", 0);

        assertThat(SvgPainter.paint("a dog", "64x64", 0)).isNotEqualTo(base);
        assertThat(SvgPainter.paint("a cat", "64x32", 0)).isNotEqualTo(base);
        assertThat(SvgPainter.paint("a cat", "64x64", 1)).isNotEqualTo(base);
    }

    @Test
    void thePromptIsEscapedAndStrippedOfWhatXmlCannotHold() {
        String svg = new String(SvgPainter.paint("<script>&\"'\u0001", "32x32", 0), StandardCharsets.UTF_8);

        assertThat(svg).contains("&lt;script&gt;&amp;&quot;&apos;</text>").doesNotContain("\u0001");
        assertThat(svg).contains("width=\"32\" height=\"32\"");
    }
}
