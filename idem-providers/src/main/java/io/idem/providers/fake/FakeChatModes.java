package io.idem.providers.fake;

import java.util.List;

/** The {@code simulate} values the fake vendor's chat side understands, for callers that validate early. */
public final class FakeChatModes {
    /** Every fixed mode, and the parameterised ones as patterns. */
    public static final List<String> MODES = List.of(
            "ok",
            "http_503",
            "http_500",
            "http_429",
            "context_length",
            "refuse",
            "malformed",
            "user_error",
            "policy",
            "auth",
            "timeout",
            "disconnect",
            "no_done",
            "no_usage",
            "stream_cut:N",
            "first_token_delay:MS",
            "slow:MS",
            "stall:MS",
            "drip:MS",
            "rate_limited:S",
            "tool_call:NAME");

    private FakeChatModes() {}

    /** Whether the fake vendor's chat side acts out {@code mode}. */
    public static boolean known(String mode) {
        return !(ChatMode.parse(mode) instanceof ChatMode.Unknown);
    }
}
