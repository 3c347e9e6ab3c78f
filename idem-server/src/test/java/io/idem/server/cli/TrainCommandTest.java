package io.idem.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code idem train} runs a throwaway demo node under each kind of traffic it exists to warm up, and
 * every request of it is answered as a working gateway answers it.
 */
class TrainCommandTest {

    @Test
    void trainingDrivesJobsChatsStreamsAndFailoversThroughAThrowawayNode() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new Main()).execute("train", "--seconds", "2", "--clients", "2");
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(printed).isZero();
        assertThat(printed)
                .contains("accept 202 ")
                .contains("read 200 ")
                .contains("chat 200 ")
                .contains("stream 200 ")
                .contains("fallback 200 ")
                .doesNotContain("failed");
    }

    @Test
    void outOfRangeSettingsAreRefused() {
        assertThat(new CommandLine(new Main()).execute("train", "--seconds", "0"))
                .isEqualTo(2);
        assertThat(new CommandLine(new Main()).execute("train", "--clients", "65"))
                .isEqualTo(2);
    }
}
