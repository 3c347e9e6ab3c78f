package io.idem.providers.kling;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.util.Optional;

/**
 * Maps Kling's refusals of a submit, {@code {"code":1201,"message":"…","request_id":"…"}} with an
 * HTTP status, onto outcomes. Kling's business codes: 1000–1004 authentication, 1100–1103 the
 * account (exception, arrears, resource pack used up, no access to the resource), 1200–1203 the
 * request (invalid, invalid value, wrong method, no such model or task), 1300–1304 policy and
 * limits (platform policy, content safety, rate, concurrency, IP allow-list), 5000–5002 the server
 * (error, unavailable, timeout). Thread-safe.
 */
final class KlingErrors {
    private KlingErrors() {}

    /** A submit answered with {@code status} (a non-zero {@code code} on a 200 counts too). */
    static Outcome refused(int status, byte[] body, VendorText text) {
        Optional<JsonNode> root = VendorJson.parse(body);
        int code = root.map(r -> r.path("code").asInt(-1)).orElse(-1);
        String message =
                text.safe(root.flatMap(r -> VendorJson.text(r, "message")).orElse("(no message)"));
        String detail = "Kling answered HTTP " + status + (code >= 0 ? " code " + code : "") + ": " + message;
        return switch (code / 100) {
            case 10 -> rejected(RejectionKind.CONFIG, "invalid_credentials", detail, status);
            case 11 -> rejected(RejectionKind.CONFIG, account(code), detail, status);
            case 12 ->
                code >= 1202
                        ? rejected(RejectionKind.CONFIG, "not_found", detail, status)
                        : rejected(RejectionKind.USER_ERROR, "invalid_request", detail, status);
            case 13 -> limits(code, detail, status);
            case 50 -> server(code == 5001 ? 503 : code == 5002 ? 504 : 500, detail);
            default -> byStatus(status, detail);
        };
    }

    private static String account(int code) {
        return switch (code) {
            case 1101 -> "account_in_arrears";
            case 1102 -> "resource_pack_exhausted";
            case 1103 -> "permission_denied";
            default -> "account_unusable";
        };
    }

    private static Outcome limits(int code, String detail, int status) {
        return switch (code) {
            case 1300, 1301 -> rejected(RejectionKind.POLICY, "content_policy_violation", detail, status);
            case 1304 -> rejected(RejectionKind.CONFIG, "ip_not_allowed", detail, status);
            default -> new Outcome.Unavailable("rate_limited", detail, status, null);
        };
    }

    /** Without a business code the HTTP status decides. */
    private static Outcome byStatus(int status, String detail) {
        return switch (status) {
            case 400, 422 -> rejected(RejectionKind.USER_ERROR, "invalid_request", detail, status);
            case 401, 403 -> rejected(RejectionKind.CONFIG, "invalid_credentials", detail, status);
            case 404 -> rejected(RejectionKind.CONFIG, "not_found", detail, status);
            case 429 -> new Outcome.Unavailable("rate_limited", detail, status, null);
            default ->
                status >= 500
                        ? server(status, detail)
                        : new Outcome.Unconfirmed(
                                "unexpected_status", detail + "; reconcile asks by our reference", status, null);
        };
    }

    /**
     * A server error: 503 answered at once is Kling refusing work (DESIGN: nothing billed); any other
     * may have come after the task was created, so it is unconfirmed and reconcile asks for the task
     * by our {@code external_task_id}.
     */
    private static Outcome server(int status, String detail) {
        if (status == 503) {
            return new Outcome.Unavailable("provider_unavailable", detail, status, null);
        }
        return new Outcome.Unconfirmed(
                "server_error", detail + "; reconcile asks for the task by our external_task_id", status, null);
    }

    private static Outcome rejected(RejectionKind kind, String code, String detail, int status) {
        return new Outcome.Rejected(kind, code, detail, status, null);
    }
}
