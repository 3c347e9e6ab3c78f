package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The review queue's other moves, over plain HTTP: reconcile from the page, and notes required. */
class ConsoleReviewTest {
    private static TestServer server;
    private static ConsoleClient operator;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("RECONCILE_INTERVAL_SECONDS", "3600"));
        operator = ConsoleClient.signedIn(server.node().baseUrl(), server.newKey("ops", "operator"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void reconcileFromTheQueueFindsTheVendorsResultAndTheTraceSaysSo() {
        String parked = ConsoleSecurityTest.park(server);
        assertThat(operator.get("/console/review").body()).contains("data-job-id=\"" + parked + "\"");

        HttpResponse<String> after = operator.postWithToken("/console/review/" + parked, Map.of("action", "reconcile"));
        assertThat(after.uri().getPath()).isEqualTo("/console/review");
        assertThat(after.body()).contains("the provider delivered").doesNotContain("data-job-id=\"" + parked + "\"");
        assertThat(ConsoleSecurityTest.state(server, parked)).isEqualTo("succeeded");

        String trace = operator.get("/console/jobs/" + parked).body();
        assertThat(trace)
                .contains("Reconciled with the provider", "data-state=\"succeeded\"", "<img src=\"/v1/assets/");
    }

    @Test
    void aDecisionWithoutANoteIsRefusedAndTheJobStaysParked() {
        String parked = ConsoleSecurityTest.park(server);
        HttpResponse<String> refused =
                operator.postWithToken("/console/review/" + parked, Map.of("action", "fail", "note", "  "));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("Write a note");
        assertThat(ConsoleSecurityTest.state(server, parked)).isEqualTo("manual_review");
    }
}
