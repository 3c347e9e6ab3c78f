package io.idem.core.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one function that makes text safe to keep or show (DESIGN §1 promise 7): whatever a vendor,
 * an exception or our own code says passes through {@link #redact} before it reaches an attempt, a
 * job, an event, a log line, the console or an HTTP answer.
 *
 * <p>It removes, replacing each run of hidden characters with {@value #MARK}:
 *
 * <ul>
 *   <li>every configured secret value (each provider's key, the server secret, the bootstrap key),
 *       wherever it occurs. A value shorter than {@value #MIN_ANYWHERE} characters is removed only
 *       where it stands as a whole word (no letter or digit on either side): hiding every
 *       occurrence of a short string would mangle ordinary text and, by the gaps it leaves, spell
 *       the secret out. Whoever builds a redactor should warn about such values; {@link
 *       #isShort} tells them apart. Blank values hide nothing and are ignored;
 *   <li>credentials in authorization shapes: the token after {@code Bearer} (any case), after
 *       {@code Basic}, {@code Key} or {@code Token} (capitalised, as in a header) when it is at least
 *       {@value #MIN_ANYWHERE} characters, and the value of an echoed {@code Authorization:} header;
 *   <li>key shapes whatever key they hold: {@code sk-…}, {@code rk-…}, {@code pk-…} (masked ones
 *       too: OpenAI's 401 quotes "sk-proj-***…abcd") and Replicate's {@code r8_…}.
 * </ul>
 *
 * <p>Overlapping and adjacent matches are found on the original text and hidden together, so no
 * remainder of a longer secret survives the removal of a shorter one. Identifiers (request ids)
 * are not this function's business: callers pass text, not ids.
 *
 * <p>Immutable and thread-safe.
 */
public final class Redactor {
    /** What stands in for hidden text. */
    public static final String MARK = "[redacted]";

    /** The shortest secret removed wherever it occurs; shorter ones only as whole words. */
    public static final int MIN_ANYWHERE = 8;

    private static final List<Shape> SHAPES = List.of(
            new Shape(Pattern.compile("(?i)\\bbearer\\s+([^\\s\"',;]+)"), 1),
            new Shape(Pattern.compile("\\b(?:Basic|Key|Token)\\s+([^\\s\"',;]{" + MIN_ANYWHERE + ",})"), 1),
            new Shape(
                    Pattern.compile(
                            "(?i)\\bauthorization[\"']?\\s*[:=]\\s*[\"']?(?:[a-z][a-z0-9-]*\\s+)?([^\\s\"',;]+)"),
                    1),
            new Shape(Pattern.compile("\\b(?:sk|rk|pk)-[A-Za-z0-9_*.\\-]{2,}[A-Za-z0-9_*]"), 0),
            new Shape(Pattern.compile("\\br8_[A-Za-z0-9]{8,}"), 0));

    private static final Redactor SHAPES_ONLY = new Redactor(List.of());

    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = List.copyOf(secrets);
    }

    /** A redactor that knows no secret values: it removes the shapes only. */
    public static Redactor shapesOnly() {
        return SHAPES_ONLY;
    }

    /**
     * A redactor for {@code secrets}; {@code null} and blank values are ignored, and a value with
     * surrounding whitespace is hidden both as given and stripped.
     */
    public static Redactor of(Collection<String> secrets) {
        Set<String> kept = new LinkedHashSet<>();
        for (String secret : secrets) {
            if (secret != null && !secret.isBlank()) {
                kept.add(secret);
                kept.add(secret.strip());
            }
        }
        return new Redactor(new ArrayList<>(kept));
    }

    /** This redactor that also hides {@code secret} (a key read after this one was built). */
    public Redactor with(String secret) {
        if (secret == null || secret.isBlank() || secrets.contains(secret)) {
            return this;
        }
        List<String> all = new ArrayList<>(secrets);
        all.add(secret);
        return of(all);
    }

    /** A redactor that hides what this one and {@code other} hide. */
    public Redactor and(Redactor other) {
        List<String> all = new ArrayList<>(secrets);
        all.addAll(other.secrets);
        return of(all);
    }

    /** Whether {@code secret} is too short to be hidden anywhere but as a whole word. */
    public static boolean isShort(String secret) {
        return secret.strip().length() < MIN_ANYWHERE;
    }

    /** {@code text} with every secret and credential shape replaced by {@value #MARK}; {@code null} stays null. */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        boolean[] hidden = new boolean[text.length()];
        boolean any = false;
        for (String secret : secrets) {
            any |= hideSecret(text, secret, hidden);
        }
        for (Shape shape : SHAPES) {
            any |= shape.hide(text, hidden);
        }
        return any ? replaced(text, hidden) : text;
    }

    private static boolean hideSecret(String text, String secret, boolean[] hidden) {
        boolean any = false;
        boolean anywhere = !isShort(secret);
        for (int at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
            int end = at + secret.length();
            if (anywhere || standsAlone(text, at, end)) {
                Arrays.fill(hidden, at, end, true);
                any = true;
            }
        }
        return any;
    }

    private static boolean standsAlone(String text, int start, int end) {
        boolean before = start == 0 || !Character.isLetterOrDigit(text.charAt(start - 1));
        boolean after = end == text.length() || !Character.isLetterOrDigit(text.charAt(end));
        return before && after;
    }

    private static String replaced(String text, boolean[] hidden) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (!hidden[i]) {
                out.append(text.charAt(i));
            } else if (i == 0 || !hidden[i - 1]) {
                out.append(MARK);
            }
        }
        return out.toString();
    }

    /** How many secret values this redactor knows (for start-up logs; never the values). */
    public int size() {
        return secrets.size();
    }

    @Override
    public String toString() {
        return "Redactor[" + secrets.size() + " secrets]";
    }

    /** A credential shape: the pattern, and the group that holds the credential (0: all of it). */
    private record Shape(Pattern pattern, int group) {
        boolean hide(String text, boolean[] hidden) {
            boolean any = false;
            Matcher m = pattern.matcher(text);
            while (m.find()) {
                if (m.start(group) < m.end(group)) {
                    Arrays.fill(hidden, m.start(group), m.end(group), true);
                    any = true;
                }
            }
            return any;
        }
    }
}
