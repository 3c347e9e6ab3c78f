package io.idem.server.chat;

import io.idem.core.chat.Chain;
import io.idem.core.chat.ChainResult;
import io.idem.core.chat.ChatAttempt;
import io.idem.server.http.ApiError;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A chain that ended without an answer, as an error the OpenAI SDK understands: {@code error.type},
 * {@code error.code} ({@code all_models_failed} or the vendor's rejection code), and the attempts
 * made (a single model's one attempt too), with {@code Retry-After} on a 429.
 */
final class ChatFailures {
    private ChatFailures() {}

    static ApiError error(Context ctx, Chain chain, ChainResult.Failed failed) {
        var failure = failed.failure();
        List<ChatAttempt> attempts = failed.attempts();
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("type", type(failure.status()));
        extra.put("attempts", ChatReport.attempts(attempts));
        extra.put("idem", ChatReport.body(chain, Optional.empty(), attempts, Optional.empty(), Optional.empty()));
        if (failure.status() == 429) {
            ctx.header("Retry-After", "1");
        }
        if (!attempts.isEmpty() && chain.multiModel()) {
            ctx.header("Idem-Attempts", ChatReport.header(attempts, Optional.empty()));
        }
        return new ApiError(failure.status(), failure.code(), failure.message(), extra);
    }

    private static String type(int status) {
        if (status == 429) {
            return "rate_limit_error";
        }
        return status < 500 ? "invalid_request_error" : "server_error";
    }
}
