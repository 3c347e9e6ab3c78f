package io.idem.providers.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What this process sent to a vendor, by our attempt reference: the exact input, the model, when
 * and with what deadline. It lets reconcile find a call whose submit answer was lost (no vendor id)
 * in the vendor's own history by matching the input, for vendors that cannot store our reference
 * (fal, Replicate).
 *
 * <p>It lives in memory only: after a restart, or on another node, a lost-answer call cannot be
 * matched this way and waits for an operator (or a webhook). Bounded: the oldest entries go first.
 * Thread-safe.
 */
public final class SubmissionBook {
    /** Enough for every call a node can have in review at once. */
    public static final int DEFAULT_CAPACITY = 10_000;

    private final Map<String, Submission> byReference;

    public SubmissionBook(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, was " + capacity);
        }
        this.byReference = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Submission> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * One call as sent.
     *
     * @param model the vendor model (or endpoint) the call named
     * @param input the input object exactly as sent
     * @param requestId the vendor's id, once known
     */
    public record Submission(
            String reference,
            String model,
            JsonNode input,
            Instant sentAt,
            Duration timeout,
            Optional<String> requestId) {
        public Submission {
            Objects.requireNonNull(reference, "reference");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(sentAt, "sentAt");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(requestId, "requestId");
            input = input.deepCopy();
        }

        /**
         * Whether {@code theirs} (the input a vendor stored) holds every field we sent with an equal
         * value. Extra fields on their side (defaults the vendor filled in) do not matter.
         */
        public boolean sameInputAs(JsonNode theirs) {
            return contains(theirs, input);
        }
    }

    public synchronized void remember(Submission submission) {
        byReference.put(submission.reference(), submission);
    }

    /** Notes the vendor id the call was given. */
    public synchronized void identify(String reference, String requestId) {
        Submission known = byReference.get(reference);
        if (known != null) {
            byReference.put(
                    reference,
                    new Submission(
                            known.reference(),
                            known.model(),
                            known.input(),
                            known.sentAt(),
                            known.timeout(),
                            Optional.of(requestId)));
        }
    }

    public synchronized Optional<Submission> find(String reference) {
        return Optional.ofNullable(byReference.get(reference));
    }

    /** Vendor ids known to belong to other calls: a history entry with one of them is not ours. */
    public synchronized Set<String> idsOfOthers(String reference) {
        Set<String> ids = new HashSet<>();
        byReference.forEach((ref, submission) -> {
            if (!ref.equals(reference)) {
                submission.requestId().ifPresent(ids::add);
            }
        });
        return ids;
    }

    private static boolean contains(JsonNode theirs, JsonNode ours) {
        if (theirs == null || theirs.isMissingNode() || theirs.isNull()) {
            return ours.isNull();
        }
        if (ours.isObject()) {
            if (!theirs.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : ours.properties()) {
                if (!contains(theirs.get(field.getKey()), field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (ours.isNumber()) {
            return theirs.isNumber() && ours.decimalValue().compareTo(theirs.decimalValue()) == 0;
        }
        if (ours.isArray()) {
            if (!theirs.isArray() || theirs.size() != ours.size()) {
                return false;
            }
            for (int i = 0; i < ours.size(); i++) {
                if (!contains(theirs.get(i), ours.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return ours.equals(theirs);
    }
}
