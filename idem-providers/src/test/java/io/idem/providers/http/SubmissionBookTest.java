package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubmissionBookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static SubmissionBook.Submission sent(String reference, String input) {
        return new SubmissionBook.Submission(
                reference, "m", json(input), Instant.EPOCH, Duration.ofSeconds(30), Optional.empty());
    }

    @Test
    void theVendorsStoredInputMatchesWhenItHoldsEveryFieldWeSent() {
        SubmissionBook.Submission ours = sent("a", "{\"prompt\":\"a cat\",\"image_size\":{\"width\":1024}}");

        assertThat(ours.sameInputAs(json("{\"prompt\":\"a cat\",\"image_size\":{\"width\":1024.0},\"steps\":28}")))
                .isTrue();
        assertThat(ours.sameInputAs(json("{\"prompt\":\"a cat\",\"image_size\":{\"width\":512}}")))
                .isFalse();
        assertThat(ours.sameInputAs(json("{\"prompt\":\"a cat\"}"))).isFalse();
        assertThat(ours.sameInputAs(json("{}").path("missing"))).isFalse();
    }

    @Test
    void idsOfOtherCallsAreKnownSoTheirEntriesAreNotMistakenForOurs() {
        SubmissionBook book = new SubmissionBook(10);
        book.remember(sent("a", "{}"));
        book.remember(sent("b", "{}"));
        book.identify("b", "vendor-b");

        assertThat(book.idsOfOthers("a")).containsExactly("vendor-b");
        assertThat(book.idsOfOthers("b")).isEmpty();
        assertThat(book.find("b").flatMap(SubmissionBook.Submission::requestId)).contains("vendor-b");
    }

    @Test
    void theOldestSubmissionGoesFirstWhenTheBookIsFull() {
        SubmissionBook book = new SubmissionBook(2);
        book.remember(sent("a", "{}"));
        book.remember(sent("b", "{}"));
        book.remember(sent("c", "{}"));

        assertThat(book.find("a")).isEmpty();
        assertThat(book.find("c")).isPresent();
    }
}
