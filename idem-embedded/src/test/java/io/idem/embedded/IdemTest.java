package io.idem.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IdemTest {
    private static EmbeddedNodes nodes;
    private static Idem idem;

    @BeforeAll
    static void start() {
        nodes = new EmbeddedNodes();
        idem = nodes.idem;
    }

    @AfterAll
    static void stop() {
        nodes.close();
    }

    @Test
    void theSameKeyAndRequestReturnTheOriginalJob() {
        JobRequest request = JobRequest.of("replayed lighthouse");
        Job first = idem.submit(request, "key-replay");
        Job second = idem.submit(JobRequest.of("replayed lighthouse"), "key-replay");

        assertThat(second.id()).isEqualTo(first.id());
    }

    @Test
    void theSameKeyWithAnotherRequestIsRefusedAndNamesTheOriginalJob() {
        Job first = idem.submit(JobRequest.of("original prompt"), "key-reused");

        assertThatThrownBy(() -> idem.submit(JobRequest.of("another prompt"), "key-reused"))
                .isInstanceOfSatisfying(
                        IdempotencyKeyReusedException.class,
                        e -> assertThat(e.jobId()).isEqualTo(first.id()))
                .hasMessageNotContaining("key-reused");
    }

    @Test
    void withoutAKeyEverySubmitIsANewJob() {
        assertThat(idem.submit(JobRequest.of("no key"), null).id())
                .isNotEqualTo(idem.submit(JobRequest.of("no key"), null).id());
    }

    @Test
    void anInvalidRequestIsRefusedWithTheHttpApisCode() {
        assertThatThrownBy(
                        () -> idem.submit(JobRequest.builder("x").size("huge").build(), null))
                .isInstanceOfSatisfying(
                        InvalidRequestException.class, e -> assertThat(e.code()).isEqualTo("invalid_size"));
        assertThatThrownBy(() -> idem.submit(JobRequest.of("x"), ""))
                .isInstanceOfSatisfying(
                        InvalidRequestException.class, e -> assertThat(e.code()).isEqualTo("invalid_idempotency_key"));
    }

    @Test
    void awaitReturnsTheSucceededJobWithItsImage() throws Exception {
        Job job = idem.submit(JobRequest.of("awaited lighthouse"), null);

        Job finished = idem.await(job.id(), Duration.ofSeconds(30));

        assertThat(finished.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(finished.providerCalls()).isEqualTo(1);
        Job.Asset image = finished.result().orElseThrow().assets().getFirst();
        assertThat(new String(idem.asset(image.id()), java.nio.charset.StandardCharsets.UTF_8))
                .startsWith("<svg");
    }

    @Test
    void onFinishedFiresOnceWithTheFinishedJob() throws Exception {
        Job job = idem.submit(JobRequest.of("called back"), null);
        List<Job> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Job> fired = new CompletableFuture<>();

        idem.onFinished(job.id(), finished -> {
            told.add(finished);
            fired.complete(finished);
        });

        assertThat(fired.get(30, TimeUnit.SECONDS).state()).isEqualTo(JobState.SUCCEEDED);
        Thread.sleep(500);
        assertThat(told).hasSize(1);
    }

    @Test
    void onFinishedForAFinishedJobFiresAtOnce() throws Exception {
        Job job = idem.await(idem.submit(JobRequest.of("already done"), null).id(), Duration.ofSeconds(30));
        CompletableFuture<Job> fired = new CompletableFuture<>();

        idem.onFinished(job.id(), fired::complete);

        assertThat(fired.get(5, TimeUnit.SECONDS).id()).isEqualTo(job.id());
    }

    @Test
    void aParkedJobIsListedAndResolvedThroughTheApi() throws Exception {
        Job job = park("parked");
        assertThat(idem.await(job.id(), Duration.ofMillis(300)).state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(idem.reviewQueue()).extracting(Job::id).contains(job.id());
        CompletableFuture<Job> fired = new CompletableFuture<>();
        idem.onFinished(job.id(), fired::complete);

        Job resolved = idem.resolve(job.id(), Decision.FAIL, "the vendor says it never billed this");

        assertThat(resolved.state()).isEqualTo(JobState.FAILED);
        assertThat(fired.get(10, TimeUnit.SECONDS).state()).isEqualTo(JobState.FAILED);
        assertThat(idem.reviewQueue()).extracting(Job::id).doesNotContain(job.id());
        assertThatThrownBy(() -> idem.resolve(job.id(), Decision.RETRY, "again"))
                .isInstanceOfSatisfying(
                        UnableToResolveException.class,
                        e -> assertThat(e.code()).isEqualTo("job_not_in_review"));
    }

    @Test
    void aParkedJobIsReconciledThroughTheApiToTheVendorsImageBilledOnce() {
        Job job = park("reconciled");

        Job reconciled = idem.reconcile(job.id());

        assertThat(reconciled.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(reconciled.attempts())
                .singleElement()
                .satisfies(a -> assertThat(a.billable()).isEqualTo("yes"));
        assertThat(nodes.vendor.ledger().stream()
                        .filter(entry -> entry.reference()
                                .equals(reconciled.attempts().getFirst().id().toString())))
                .hasSize(1);
    }

    /** A job whose vendor bills and answers too late: it parks in review. */
    private static Job park(String prompt) {
        Job job = idem.submit(
                JobRequest.builder(prompt)
                        .timeoutSeconds(1)
                        .simulate(Map.of("primary", "timeout"))
                        .build(),
                null);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> idem.find(job.id()).orElseThrow().state() == JobState.MANUAL_REVIEW);
        return job;
    }

    @Test
    void aDecisionWithoutANoteIsRefused() {
        assertThatThrownBy(() -> idem.resolve(java.util.UUID.randomUUID(), Decision.FAIL, " "))
                .isInstanceOfSatisfying(
                        InvalidRequestException.class, e -> assertThat(e.code()).isEqualTo("missing_note"));
    }

    @Test
    void anUnknownJobIsNotFound() {
        var id = java.util.UUID.randomUUID();
        assertThat(idem.find(id)).isEmpty();
        assertThatThrownBy(() -> idem.await(id, Duration.ofSeconds(1))).isInstanceOf(NoSuchJobException.class);
        assertThatThrownBy(() -> idem.resolve(id, Decision.FAIL, "note")).isInstanceOf(NoSuchJobException.class);
    }

    @Test
    void aChatCallIsAnsweredThroughTheChain() {
        ChatAnswer answer =
                idem.chat(ChatRequest.builder("fake-chat-a").user("hello").build());

        assertThat(answer.text()).isNotBlank();
        assertThat(answer.servedModel()).isEqualTo("fake-chat-a");
        assertThat(answer.attempts())
                .singleElement()
                .satisfies(a -> assertThat(a.outcome()).isEqualTo("served"));
    }

    @Test
    void aChatCallToAnUnknownModelIsRefused() {
        assertThatThrownBy(() -> idem.chat(
                        ChatRequest.builder("no-such-model").user("hello").build()))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void aChatCallWhoseOnlyModelFailsSaysWhatItTried() {
        assertThatThrownBy(() -> idem.chat(ChatRequest.builder("fake-chat-a")
                        .user("hello")
                        .simulate("fake-chat-a", "http_503")
                        .build()))
                .isInstanceOfSatisfying(
                        ChatFailedException.class,
                        // a 503 is unbilled: tried once more on the same model (the chain's default retry), then
                        // nothing is left
                        e -> assertThat(e.attempts())
                                .hasSize(2)
                                .allSatisfy(a -> assertThat(a.billable()).isEqualTo("no")));
    }
}
