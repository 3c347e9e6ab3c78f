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
            String owner,
            String state,
            String stateLabel,
            String stateIcon,
            String lane,
            String prompt,
            String model,
            String candidates,
            String path,
            int providerCalls,
            String created,
            String updated,
            String error,
            String reviewReason,
            String reviewSince,
            List<ImageView> images,
            List<AttemptView> attempts,
            List<EventView> events,
            boolean finished,
            boolean inReview) {}

    public record ImageView(String url, String alt) {}

    public record AttemptView(
            String provider,
            String model,
            int round,
            String status,
            String statusLabel,
            String errorClass,
            String httpStatus,
            String providerRequestId,
            String latency,
            String billable,
            String cost) {}

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
            String health,
            String healthDetail,
            String breaker,
            String breakerLabel,
            String breakerDetail,
            long recentCalls,
            String errorRate,
            String p95,
            long callsToday,
            String billedToday,
            long unknownToday,
            String budget,
            boolean budgetExhausted) {}

    public record ProvidersView(Frame frame, List<ProviderView> providers) {}
}
