package io.idem.providers.http.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link WireInput}: lines cut out of its buffer, also where one runs past the buffer's end. */
class WireInputTest {

    /** A source that hands out at most {@code step} bytes per read, as a socket may. */
    private static InputStream trickle(String text, int step) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    @Test
    void linesEndWithCrlfOrABareLfAndTheBytesAfterThemStayReadable() throws Exception {
        for (int size : new int[] {4, 7, 64}) {
            for (int step : new int[] {1, 3, 100}) {
                WireInput in = new WireInput(trickle("HTTP/1.1 200 OK\r\nA: b\n\r\nbody", step), size);
                assertThat(in.readLine(100, "x"))
                        .as("buffer %d, step %d", size, step)
                        .isEqualTo("HTTP/1.1 200 OK");
                assertThat(in.readLine(100, "x")).isEqualTo("A: b");
                assertThat(in.readLine(100, "x")).isEmpty();
                assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1))
                        .isEqualTo("body");
            }
        }
    }

    @Test
    void aLineOfExactlyTheLimitPassesAndOneByteMoreIsTooLong() throws Exception {
        String ten = "0123456789";
        assertThat(new WireInput(trickle(ten + "\r\n", 3), 4).readLine(11, "x")).isEqualTo(ten);
        assertThatThrownBy(() -> new WireInput(trickle(ten + "\r\n", 3), 4).readLine(10, "the head"))
                .isInstanceOf(WireInput.LineTooLongException.class)
                .hasMessageContaining("the head line longer than 10 bytes");
        assertThatThrownBy(() -> new WireInput(trickle(ten + "\r\n", 100), 64).readLine(9, "x"))
                .isInstanceOf(WireInput.LineTooLongException.class);
    }

    @Test
    void theStreamEndingBeforeALineIsEofAndInsideOneIsAProtocolError() throws Exception {
        WireInput empty = new WireInput(trickle("", 1), 8);
        assertThatThrownBy(() -> empty.readLine(100, "any answer"))
                .isInstanceOf(EOFException.class)
                .hasMessage("connection closed before any answer");
        WireInput cut = new WireInput(trickle("HTTP/1.1 2", 3), 4);
        assertThatThrownBy(() -> cut.readLine(100, "any answer"))
                .isInstanceOf(ProtocolException.class)
                .isNotInstanceOf(WireInput.LineTooLongException.class)
                .hasMessage("connection closed inside any answer");
    }

    @Test
    void readsTakeBufferedBytesFirstAndTellHowManyAreLeft() throws Exception {
        WireInput in = new WireInput(trickle("ab\nxyz", 100), 16);
        assertThat(in.readLine(10, "x")).isEqualTo("ab");
        assertThat(in.buffered()).isEqualTo(3);
        assertThat(in.read()).isEqualTo('x');
        byte[] two = new byte[2];
        assertThat(in.read(two, 0, 2)).isEqualTo(2);
        assertThat(new String(two, StandardCharsets.ISO_8859_1)).isEqualTo("yz");
        assertThat(in.buffered()).isZero();
        assertThat(in.read()).isEqualTo(-1);
    }
}
