package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one-column rules of the tables that every job and chat call writes are their columns'
 * domains (V47): PostgreSQL plans a table's check constraints again in every statement that writes
 * one of its rows, a domain's once per session. The rules themselves are unchanged.
 */
class ColumnDomainsTest {
    /** The tables a job's accept, claim, write-ahead and settle, and a chat call's audit, write. */
    private static final List<String> WRITTEN =
            List.of("jobs", "job_events", "provider_attempts", "chat_attempts", "budget_holds");

    private static Database db;

    @BeforeAll
    static void open() {
        db = TestDatabases.fresh(2);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void everyCheckLeftOnAWrittenTableSpansTwoColumns() {
        List<String> oneColumn = TestDatabases.column(db, """
                SELECT conrelid::regclass || '.' || conname FROM pg_constraint
                 WHERE contype = 'c' AND cardinality(conkey) < 2
                   AND conrelid::regclass::text IN ('%s')
                """.formatted(String.join("', '", WRITTEN)));
        assertThat(oneColumn).isEmpty();
        // the two-column ones still hold: a lease only on a running job, video seconds only on a video
        assertThat(TestDatabases.column(
                        db, "SELECT conname FROM pg_constraint WHERE conrelid = 'jobs'::regclass AND contype = 'c'"))
                .containsExactlyInAnyOrder("jobs_check", "jobs_video_params");
    }

    @Test
    void eachColumnHasItsDomain() {
        assertThat(TestDatabases.column(db, """
                SELECT table_name || '.' || column_name || ' ' || domain_name FROM information_schema.columns
                 WHERE domain_name IS NOT NULL AND table_schema = current_schema() ORDER BY 1
                """))
                .containsExactly(
                        "budget_holds.billable billable_flag",
                        "budget_holds.kind budget_hold_kind",
                        "chat_attempts.billable billable_flag",
                        "chat_attempts.outcome chat_outcome",
                        "job_events.type job_event_type",
                        "jobs.image_options image_options_object",
                        "jobs.state job_state",
                        "jobs.video_seconds video_length_seconds",
                        "provider_attempts.billable billable_flag",
                        "provider_attempts.status attempt_status");
    }

    @Test
    void theDomainsTakeExactlyTheJavaSetsAndRefuseAnythingElseAsACheckViolation() {
        accepts("job_state", JobState.values(), JobState::wire);
        refuses("job_state", "paused", "jobs_state_check");
        accepts("attempt_status", AttemptStatus.values(), AttemptStatus::wire);
        refuses("attempt_status", "lost", "provider_attempts_status_check");
        accepts("billable_flag", Billable.values(), Billable::wire);
        refuses("billable_flag", "maybe", "billable_flag_check");
        accepts("job_event_type", JobEventType.values(), JobEventType::wire);
        refuses("job_event_type", "job.exploded", "job_events_type_known");
        accepts(
                "chat_outcome",
                new String[] {"served", "unavailable", "rejected", "unconfirmed", "adapter_fault", "skipped"},
                s -> s);
        refuses("chat_outcome", "timeout", "chat_attempts_outcome_check");
        accepts("budget_hold_kind", new String[] {"job", "chat"}, s -> s);
        refuses("budget_hold_kind", "video", "budget_holds_kind_check");
    }

    @Test
    void videoSecondsAndImageOptionsKeepTheirBoundsAndNullStaysAllowed() {
        assertThat(cast("1", "video_length_seconds")).isEqualTo("1");
        assertThat(cast("120", "video_length_seconds")).isEqualTo("120");
        assertThat(cast(null, "video_length_seconds")).isNull();
        refuses("video_length_seconds", "0", "jobs_video_seconds_check");
        refuses("video_length_seconds", "121", "jobs_video_seconds_check");
        assertThat(cast("{\"quality\": \"high\"}", "image_options_object")).isEqualTo("{\"quality\": \"high\"}");
        assertThat(cast(null, "image_options_object")).isNull();
        refuses("image_options_object", "[1, 2]", "jobs_image_options_check");
    }

    private static <E> void accepts(String domain, E[] values, Function<E, String> wire) {
        for (String value : Arrays.stream(values).map(wire).toList()) {
            assertThat(cast(value, domain)).as(domain + " takes " + value).isEqualTo(value);
        }
    }

    private static void refuses(String domain, String value, String constraint) {
        assertThatThrownBy(() -> cast(value, domain))
                .as(domain + " refuses " + value)
                .isInstanceOf(UnableToQueryException.class)
                .rootCause()
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"))
                .hasMessageContaining(constraint);
    }

    private static String cast(String value, String domain) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT CAST(CAST(? AS text) AS " + domain + ")::text")) {
                ps.setString(1, value);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        });
    }
}
