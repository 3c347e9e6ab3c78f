package io.idem.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one redaction function: configured secrets, credential shapes, and the edges of both. */
class RedactorTest {
    private static final String FAL = "3f1c9a7e-55aa-4e0b:9d8c7b6a5f4e3d2c";
    private static final String SERVER = "server-secret-0123456789";

    private static Redactor of(String... secrets) {
        return Redactor.of(Arrays.asList(secrets));
    }

    @Test
    void everyConfiguredSecretIsRemovedWhereverItOccurs() {
        String text = "fal said " + FAL + ", and then " + SERVER + " twice: " + SERVER;

        String redacted = of(FAL, SERVER).redact(text);

        assertThat(redacted)
                .doesNotContain(FAL)
                .doesNotContain(SERVER)
                .isEqualTo("fal said [redacted], and then [redacted] twice: [redacted]");
    }

    @Test
    void aSecretAtTheVeryStartOrEndOfTheTextIsRemoved() {
        Redactor redactor = of(SERVER);

        assertThat(redactor.redact(SERVER)).isEqualTo("[redacted]");
        assertThat(redactor.redact(SERVER + " leads")).isEqualTo("[redacted] leads");
        assertThat(redactor.redact("trails " + SERVER)).isEqualTo("trails [redacted]");
        assertThat(redactor.redact("glued" + SERVER + "glued")).isEqualTo("glued[redacted]glued");
    }

    @Test
    void overlappingSecretsLeaveNoRemainderOfEither() {
        String first = "AAAAbbbbCCCC";
        String second = "CCCCddddEEEE";
        String text = "x AAAAbbbbCCCCddddEEEE y";

        assertThat(of(first, second).redact(text)).isEqualTo("x [redacted] y");
        assertThat(of(second, first).redact(text)).isEqualTo("x [redacted] y");
    }

    @Test
    void aSecretInsideAnotherIsRemovedWithIt() {
        String outer = "outer-0123456789-inner-abcdefgh";
        String inner = "inner-abcdefgh";

        assertThat(of(inner, outer).redact("[" + outer + "] and " + inner)).isEqualTo("[[redacted]] and [redacted]");
    }

    @Test
    void bearerKeyBasicAndTokenCredentialsAreRemovedWhateverKeyTheyHold() {
        Redactor redactor = Redactor.shapesOnly();

        assertThat(redactor.redact("header was Authorization: Bearer abc.def-ghi"))
                .isEqualTo("header was Authorization: Bearer [redacted]");
        assertThat(redactor.redact("sent bearer xyz")).isEqualTo("sent bearer [redacted]");
        assertThat(redactor.redact("fal got Key 1234abcd:ef567890")).isEqualTo("fal got Key [redacted]");
        assertThat(redactor.redact("proxy got Basic dXNlcjpwYXNzd29yZA==")).isEqualTo("proxy got Basic [redacted]");
        assertThat(redactor.redact("replicate got Token r8_0123456789abcdef"))
                .isEqualTo("replicate got Token [redacted]");
    }

    @Test
    void anEchoedAuthorizationHeaderLosesItsValueWhateverItsScheme() {
        Redactor redactor = Redactor.shapesOnly();

        assertThat(redactor.redact("{\"authorization\": \"Custom c2VjcmV0\"}"))
                .isEqualTo("{\"authorization\": \"Custom [redacted]\"}");
        assertThat(redactor.redact("authorization=opaque42")).isEqualTo("authorization=[redacted]");
    }

    @Test
    void keyShapedTokensAreRemovedMaskedOrNot() {
        Redactor redactor = Redactor.shapesOnly();

        assertThat(redactor.redact("Incorrect API key provided: sk-proj-***abcd. See docs."))
                .isEqualTo("Incorrect API key provided: [redacted]. See docs.");
        assertThat(redactor.redact("keys rk-live-1234 and pk-test_99")).isEqualTo("keys [redacted] and [redacted]");
        assertThat(redactor.redact("token r8_AbCdEf0123456789 is invalid")).isEqualTo("token [redacted] is invalid");
    }

    @Test
    void ordinaryWordsAfterLowerCaseSchemeNamesSurvive() {
        Redactor redactor = Redactor.shapesOnly();

        assertThat(redactor.redact("Incorrect API key provided; the basic plan has no token access"))
                .isEqualTo("Incorrect API key provided; the basic plan has no token access");
        assertThat(redactor.redact("the task desk-top.png failed")).isEqualTo("the task desk-top.png failed");
    }

    @Test
    void aShortSecretIsRemovedOnlyWhereItStandsAsAWord() {
        Redactor redactor = of("ollama");

        assertThat(Redactor.isShort("ollama")).isTrue();
        assertThat(redactor.redact("key ollama refused; ollamas and myollama stay"))
                .isEqualTo("key [redacted] refused; ollamas and myollama stay");
    }

    @Test
    void blankAndNullSecretsAreIgnoredAndNullTextStaysNull() {
        Redactor redactor = Redactor.of(Arrays.asList(null, "", "   "));

        assertThat(redactor.size()).isZero();
        assertThat(redactor.redact(null)).isNull();
        assertThat(redactor.redact("")).isEmpty();
        assertThat(redactor.redact("nothing secret here")).isEqualTo("nothing secret here");
    }

    @Test
    void aSecretWithSurroundingWhitespaceIsRemovedAsGivenAndStripped() {
        Redactor redactor = Redactor.of(List.of("  " + SERVER + "\n"));

        assertThat(redactor.redact("value=" + SERVER + ";")).isEqualTo("value=[redacted];");
    }

    @Test
    void withAndAndAddSecretsWithoutLosingTheOthers() {
        Redactor redactor = of(SERVER).with(FAL).and(of("third-secret-value"));

        assertThat(redactor.redact(SERVER + " " + FAL + " third-secret-value"))
                .isEqualTo("[redacted] [redacted] [redacted]");
        assertThat(redactor.toString()).doesNotContain(SERVER).doesNotContain(FAL);
    }
}
