package io.idem.server.invoices;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.Role;
import io.idem.core.invoice.InvoiceCheck;
import io.idem.core.invoice.InvoiceReconciler;
import io.idem.core.spi.InvoiceChecks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /v1/admin/invoice-checks}: the daily checks of Idem's audit against vendors' own usage
 * reports (list), and a check of one provider and day made now (an operator re-checking a day, or
 * one the daily pass has not reached). Admin only.
 */
public final class InvoicesApi implements Feature {
    static final String PATH = "/v1/admin/invoice-checks";
    /** How far back a day may be checked: vendors keep about a year of usage. */
    private static final int MAX_DAYS_BACK = 400;

    private final Auth auth;
    private final InvoiceReconciler reconciler;
    private final InvoiceChecks checks;
    private final Set<String> providers;
    private final InstantSource clock;

    public InvoicesApi(
            Auth auth, InvoiceReconciler reconciler, InvoiceChecks checks, Set<String> providers, InstantSource clock) {
        this.auth = auth;
        this.reconciler = reconciler;
        this.checks = checks;
        this.providers = Set.copyOf(providers);
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get(PATH, this::list);
        config.routes.post(PATH, this::checkNow);
    }

    private void list(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        Optional<String> provider = Optional.ofNullable(ctx.queryParam("provider"));
        provider.ifPresent(this::known);
        List<Map<String, Object>> data =
                checks.recent(provider, 100).stream().map(InvoicesApi::render).toList();
        Json.write(ctx, Map.of("data", data));
    }

    private void checkNow(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        JsonNode body = Json.readObject(ctx, 4 * 1024);
        Json.refuseUnknown(body, Set.of("provider", "date"));
        String provider = known(Json.text(body, "provider", null));
        LocalDate day = day(Json.text(body, "date", null));
        InvoiceCheck check = reconciler
                .check(provider, day)
                .orElseThrow(() -> new ApiError(
                        422,
                        "usage_unavailable",
                        "provider '" + provider + "' gave no usage report for " + day
                                + " (its vendor offers none to Idem, or it could not be read now: see the log)"));
        Json.write(ctx, render(check));
    }

    private String known(String provider) {
        if (provider == null || !providers.contains(provider)) {
            throw ApiError.badRequest(
                    "invalid_provider", "provider must be one of " + new java.util.TreeSet<>(providers));
        }
        return provider;
    }

    private LocalDate day(String date) {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        LocalDate day;
        try {
            day = LocalDate.parse(date == null ? "" : date);
        } catch (DateTimeParseException e) {
            throw ApiError.badRequest("invalid_date", "date must be a UTC day as YYYY-MM-DD");
        }
        if (day.isAfter(today) || day.isBefore(today.minusDays(MAX_DAYS_BACK))) {
            throw ApiError.badRequest(
                    "invalid_date", "date must be today or one of the " + MAX_DAYS_BACK + " days before it (UTC)");
        }
        return day;
    }

    private static Map<String, Object> render(InvoiceCheck check) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("provider", check.provider());
        out.put("date", check.day().toString());
        out.put("audit_usd", check.auditUsd().toPlainString());
        out.put("vendor_usd", check.vendorUsd().toPlainString());
        out.put(
                "capture_rate",
                check.captureRate().map(BigDecimal::toPlainString).orElse(null));
        out.put("itemized", check.itemized());
        out.put("unmatched_count", check.unmatchedCount());
        out.put(
                "unmatched",
                check.unmatched().stream()
                        .map(charge -> {
                            Map<String, Object> line = new LinkedHashMap<>();
                            line.put("request_id", charge.requestId().orElse(null));
                            line.put("cost_usd", charge.costUsd().toPlainString());
                            line.put("at", charge.at().toString());
                            return line;
                        })
                        .toList());
        out.put("checked_at", check.checkedAt().toString());
        return out;
    }
}
