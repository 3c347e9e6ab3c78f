package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.auth.ServerSecret;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session table's bounds and the stateless sign-in form, on a manual clock. */
class ConsoleSessionsTest {
    private final ManualClock clock = new ManualClock();
    private final SessionTable table = new SessionTable(clock);
    private final SignInForms forms = new SignInForms(ServerSecret.of("test-secret-0123456789abcdef"), clock);

    @Test
    void aFloodOfAnonymousSignInFormsLeavesTheSignedInOperatorSignedIn() {
        ConsoleSession operator = table.tryStart("idem_operator_key").orElseThrow();
        for (int i = 0; i < SessionTable.CAPACITY * 3; i++) {
            SignInForms.Form form = forms.issue();
            assertThat(forms.matches(form.nonce(), form.token())).isTrue();
            clock.advance(Duration.ofMillis(10));
        }
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.find(operator.id())).contains(operator);
    }

    @Test
    void aSignInFormIsBoundToItsNonceAndExpires() {
        SignInForms.Form form = forms.issue();
        SignInForms.Form other = forms.issue();
        assertThat(forms.matches(form.nonce(), other.token())).isFalse();
        assertThat(forms.matches(form.nonce(), null)).isFalse();
        assertThat(forms.matches("9999999999." + "x", form.token())).isFalse();
        assertThat(forms.reuse(form.nonce())).contains(form);

        clock.advance(SignInForms.LIFETIME.plusSeconds(1));
        assertThat(forms.matches(form.nonce(), form.token())).isFalse();
        assertThat(forms.reuse(form.nonce())).isEmpty();
    }

    @Test
    void aFormSignedWithAnotherSecretIsRefused() {
        SignInForms elsewhere = new SignInForms(ServerSecret.of("another-secret-0123456789"), clock);
        SignInForms.Form form = elsewhere.issue();
        assertThat(forms.matches(form.nonce(), form.token())).isFalse();
    }

    @Test
    void aKeysNextSignInBeyondItsShareEndsOnlyItsOwnLeastRecentlySeenSession() {
        ConsoleSession other = table.tryStart("idem_other_key").orElseThrow();
        List<ConsoleSession> mine = new ArrayList<>();
        for (int i = 0; i < SessionTable.PER_KEY; i++) {
            mine.add(table.tryStart("idem_my_key").orElseThrow());
            clock.advance(Duration.ofSeconds(1));
        }
        table.find(mine.getFirst().id()); // the oldest is now the most recently seen
        table.tryStart("idem_my_key").orElseThrow();

        assertThat(table.size()).isEqualTo(SessionTable.PER_KEY + 1);
        assertThat(table.find(mine.get(1).id())).isEmpty();
        assertThat(table.find(mine.getFirst().id())).isPresent();
        assertThat(table.find(other.id())).contains(other);
    }

    @Test
    void aFullTableRefusesTheNextSignInInsteadOfEndingALiveSession() {
        SessionTable small = new SessionTable(clock, 3, 2);
        List<ConsoleSession> live = List.of(
                small.tryStart("idem_a").orElseThrow(),
                small.tryStart("idem_b").orElseThrow(),
                small.tryStart("idem_c").orElseThrow());
        assertThat(small.tryStart("idem_d")).isEmpty();
        assertThat(live).allSatisfy(s -> assertThat(small.live(s)).isTrue());
    }

    @Test
    void aFullTableMakesRoomByDroppingExpiredSessionsOnly() {
        SessionTable small = new SessionTable(clock, 2, 1);
        ConsoleSession idle = small.tryStart("idem_idle").orElseThrow();
        clock.advance(SessionTable.IDLE.minusMinutes(1));
        ConsoleSession active = small.tryStart("idem_active").orElseThrow();
        clock.advance(Duration.ofMinutes(2));

        ConsoleSession fresh = small.tryStart("idem_fresh").orElseThrow();
        assertThat(small.live(idle)).isFalse();
        assertThat(small.live(active)).isTrue();
        assertThat(small.live(fresh)).isTrue();
    }

    @Test
    void sessionsExpireWhenIdleOrOld() {
        ConsoleSession idle = table.tryStart("idem_idle").orElseThrow();
        ConsoleSession busy = table.tryStart("idem_busy").orElseThrow();
        for (int hour = 0; hour < 24; hour++) {
            clock.advance(Duration.ofHours(1));
            table.find(busy.id());
        }
        assertThat(table.find(idle.id())).isEmpty();
        assertThat(table.live(busy)).isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(table.find(busy.id())).isEmpty();
    }
}
