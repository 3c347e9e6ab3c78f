package io.idem.embedded;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BuilderTest {
    @Test
    void anOptionSetTwiceIsRefusedWithTheValueItWouldReplace() {
        assertThatThrownBy(() -> Idem.builder().workers(2).workers(3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("workers")
                .hasMessageContaining("2");
    }

    @Test
    void aSecretSetTwiceIsNotQuoted() {
        assertThatThrownBy(() -> Idem.builder().secret("s3cr3t-value").secret("other"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining("s3cr3t-value");
    }

    @Test
    void aBuildWithoutADatabaseIsRefused() {
        assertThatThrownBy(() -> Idem.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("database");
    }

    @Test
    void aNegativeWorkerCountIsRefusedWithItsValue() {
        assertThatThrownBy(() -> Idem.builder().workers(-1)).hasMessageContaining("-1");
    }
}
