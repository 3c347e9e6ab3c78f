package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.IdemException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UnexpectedRowCountExceptionTest {
    private static final UUID JOB = UUID.fromString("00000000-0000-0000-0000-000000000042");

    @Test
    void noRowMeansSomeoneElseWon() {
        assertThat(UnexpectedRowCountException.oneRow(0, "move to failed", JOB)).isFalse();
    }

    @Test
    void oneRowIsTheNormalCase() {
        assertThat(UnexpectedRowCountException.oneRow(1, "move to failed", JOB)).isTrue();
    }

    @Test
    void moreThanOneRowIsABugThatNamesTheWriteAndTheJob() {
        assertThatThrownBy(() -> UnexpectedRowCountException.oneRow(2, "move to failed", JOB))
                .isInstanceOf(UnexpectedRowCountException.class)
                .isInstanceOf(IdemException.class)
                .hasMessageContaining("move to failed")
                .hasMessageContaining(JOB.toString())
                .hasMessageContaining("2 rows");
    }
}
