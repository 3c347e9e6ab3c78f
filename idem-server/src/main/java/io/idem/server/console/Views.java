package io.idem.server.console;

import java.util.List;

/**
 * The models the console's jte templates render. Plain data, already worded and formatted for
 * people; a {@code null} string means "nothing to show". Public only because the generated
 * template classes live in another package.
 */
public final class Views {
    private Views() {}

    /** What every page's frame needs: title, the active tab, who is signed in, the CSRF token. */
    public record Frame(
            String title,
            String active,
            boolean signedIn,
            String owner,
            String role,
            String csrf,
            boolean canReview,
            String flash) {}

    public record LoginView(Frame frame, String csrf, String error) {}

    public record ErrorView(Frame frame, int status, String message) {}

    /** One {@code <option>}. */
    public record Option(String value, String label, boolean selected) {}

    /** The failure-mode selector of one fake provider. */
    public record SimulateChoice(String provider, List<Option> options) {}

    /** A line of the legend that explains the failure modes. */
    public record ModeHelp(String label, String effect) {}

    /** The outcome of the last Generate or Idempotent replay click. */
    public record Submitted(boolean replayed, String idempotencyKey, String message) {}

    public record GenerateView(
            Frame frame,
            String prompt,
            List<Option> lanes,
            int timeoutSeconds,
            List<SimulateChoice> simulate,
            List<ModeHelp> help,
            boolean canReplay,
            String error,
            Submitted submitted,
            JobView job) {}

    public record JobView(
            String id,
            String shortId,
            StateView state,
            RequestView request,
            RunView run,
            List<ImageView> images,
            List<AttemptView> attempts,
            List<EventView> events) {}

    /** Where a job stands: the wire name, in words, as a shape, and whether it can still move. */
    public record StateView(String wire, String label, String icon, boolean finished, boolean inReview) {}

    /** What the client asked for; {@code candidates} are the providers in order. */
    public record RequestView(String owner, String lane, String prompt, String model, String candidates) {}

    /** What happened so far: the providers called, when, and why it failed or waits for review. */
    public record RunView(
            String path,
            int providerCalls,
            String created,
            String updated,
            String error,
            String reviewReason,
            String reviewSince) {}

    /** One result file: an image, or a video clip (shown with a player). */
    public record ImageView(String url, String alt, String mimeType) {
        public boolean video() {
            return mimeType.startsWith("video/");
        }
    }

    public record AttemptView(
            String provider,
            String model,
            int round,
            String status,
            String statusLabel,
            AnswerView answer,
            String billable,
            String cost) {}

    /** How the vendor answered an attempt: error class, HTTP status, its request id, how fast. */
    public record AnswerView(String errorClass, String httpStatus, String providerRequestId, String latency) {}

    public record EventView(
            String time,
            String title,
            String type,
            String transition,
            String actor,
            List<Detail> details,
            String note,
            boolean decision) {}

    public record Detail(String key, String value) {}

    public record TraceView(Frame frame, JobView job) {}

    public record JobsView(Frame frame, String state, List<Option> states, List<JobView> jobs, String streamUrl) {}

    public record ReviewItem(JobView job, String reason, String age) {}

    /** The queue; {@code decided} is the job of the decision just made, to link its trace. */
    public record ReviewView(Frame frame, List<ReviewItem> items, String decided) {}

    public record ProviderView(
            String name,
            String adapter,
            boolean enabled,
            String lanes,
            HealthView health,
            BreakerView breaker,
            RecentView recent,
            TodayView today,
            BudgetView budget) {}

    /** The health sentinel's last check: healthy, unhealthy or unknown, and what it saw. */
    public record HealthView(String state, String detail) {}

    /** The shared breaker: its wire state, in words with a shape, and until when it is open. */
    public record BreakerView(String state, String label, String detail) {}

    /** The last 15 minutes of calls. */
    public record RecentView(long calls, String errorRate, String p95) {}

    /** Today's calls, billed spend, and calls whose billing is unknown. */
    public record TodayView(long calls, String billed, long unknown) {}

    /** The daily budget in words, and whether it is spent. */
    public record BudgetView(String text, boolean exhausted) {}

    public record ProvidersView(Frame frame, List<ProviderView> providers) {}
}
