import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ShieldCheck, ShieldOff } from "lucide-react";
import { ConfirmationDialog } from "@/components/confirmation-dialog";
import { FormError } from "@/components/form-error";
import { needsStepUp, StepUpPrompt } from "@/components/step-up-prompt";
import { Button } from "@/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { isApiError } from "@/lib/api-client";
import {
  mfaStatusQueryOptions,
  useDisableTotp,
  useNewRecoveryCodes,
  useStartTotp,
  type TotpEnrolment as Enrolment,
} from "../api/mfa";
import { RecoveryCodes } from "@/components/recovery-codes";
import { TotpEnrolment } from "./totp-enrolment";

/**
 * "Two-factor authentication" in personal details (issue 29): whether an
 * authenticator app is on, its enrolment (QR code, key, first code), the
 * recovery codes shown once, new ones, and turning it off — the last two
 * confirmed with the current password. onEnrolled runs once an app is on.
 */
export function TwoFactorCard({ onEnrolled }: { onEnrolled?: () => void }) {
  const { t } = useTranslation("mfa");
  const status = useQuery(mfaStatusQueryOptions());
  const start = useStartTotp();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  // Asked for when the session signed in long ago (422 on current_password).
  const [password, setPassword] = useState("");

  let body;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          onEnrolled?.();
        }}
      />
    );
  } else if (enrolment) {
    body = (
      <TotpEnrolment
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onConfirmed={(c) => {
          setEnrolment(null);
          setCodes(c);
        }}
      />
    );
  } else if (status.isPending) {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        {t("card.loading")}
      </p>
    );
  } else if (status.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        {t("card.load_failed")}
      </p>
    );
  } else if (status.data.totp) {
    body = (
      <div className="grid gap-3">
        <p className="flex items-center gap-2 text-sm">
          <ShieldCheck className="h-4 w-4 text-green-700" aria-hidden="true" />
          {t("card.on")}{" "}
          {t("card.codes_left", { count: status.data.recovery_codes_left })}
        </p>
        <div className="flex flex-wrap gap-2">
          <PasswordConfirmed kind="regenerate" onCodes={setCodes} />
          <PasswordConfirmed kind="disable" />
        </div>
      </div>
    );
  } else {
    // Passkeys alone are a second factor too (with their recovery codes).
    const passkeys = status.data.passkeys > 0;
    const passwordError = isApiError(start.error)
      ? start.error.fields.current_password
      : undefined;
    const needsPassword = passwordError !== undefined || password !== "";
    const wrongPassword = passwordError === "wrong_password";
    body = (
      <div className="grid gap-3">
        {passkeys ? (
          <p className="flex items-center gap-2 text-sm">
            <ShieldCheck
              className="h-4 w-4 text-green-700"
              aria-hidden="true"
            />
            {t("card.on_passkeys")}{" "}
            {t("card.codes_left", { count: status.data.recovery_codes_left })}
          </p>
        ) : (
          <p className="flex items-center gap-2 text-sm">
            <ShieldOff
              className="h-4 w-4 text-muted-foreground"
              aria-hidden="true"
            />
            {t("card.off")}
          </p>
        )}
        <StartError error={start.error} />
        {needsPassword ? (
          <div className="grid max-w-sm gap-1.5">
            <Label htmlFor="mfa-set-up-password">
              {t("card.current_password")}
            </Label>
            <Input
              id="mfa-set-up-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={wrongPassword ? true : undefined}
              aria-describedby="mfa-set-up-password-hint"
            />
            <p
              id="mfa-set-up-password-hint"
              className="text-sm text-muted-foreground"
            >
              {t(
                wrongPassword
                  ? "card.set_up_password_wrong"
                  : "card.set_up_password",
              )}
            </p>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            loading={start.isPending}
            onClick={() =>
              start.mutate(password || undefined, {
                onSuccess: (e) => {
                  setPassword("");
                  setEnrolment(e);
                },
              })
            }
          >
            {t("card.set_up")}
          </Button>
          {passkeys ? (
            <PasswordConfirmed kind="regenerate" onCodes={setCodes} />
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("card.title")}</CardTitle>
        <CardDescription>{t("card.description")}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

/** What stopped the enrolment's start: the Google step-up, or an error (the password is asked for above). */
function StartError({ error }: { error: unknown }) {
  if (!error) return null;
  if (needsStepUp(error)) return <StepUpPrompt />;
  if (
    isApiError(error) &&
    error.status === 422 &&
    error.fields.current_password
  )
    return null;
  return <FormError error={error} />;
}

/** New recovery codes, or turning the app off: a dialog that asks for the current password. */
function PasswordConfirmed({
  kind,
  onCodes,
}: {
  kind: "regenerate" | "disable";
  onCodes?: (codes: string[]) => void;
}) {
  const { t } = useTranslation("mfa");
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const regenerate = useNewRecoveryCodes();
  const disable = useDisableTotp();
  const action = kind === "regenerate" ? regenerate : disable;
  const wrong = isApiError(action.error) && action.error.status === 422;
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setPassword("");
      action.reset();
    }
  };
  return (
    <ConfirmationDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button variant={kind === "disable" ? "destructive" : "outline"}>
          {t(kind === "disable" ? "card.disable" : "card.new_codes")}
        </Button>
      }
      title={t(
        kind === "disable" ? "card.disable_title" : "card.regenerate_title",
      )}
      description={t(
        kind === "disable" ? "card.disable_text" : "card.regenerate_text",
      )}
      cancelLabel={t("card.cancel")}
      confirmLabel={t(kind === "disable" ? "card.disable" : "card.new_codes")}
      destructive={kind === "disable"}
      pending={action.isPending}
      onConfirm={() => {
        if (kind === "regenerate") {
          regenerate.mutate(password, {
            onSuccess: (codes) => {
              close(false);
              onCodes?.(codes ?? []);
            },
          });
        } else {
          disable.mutate(password, { onSuccess: () => close(false) });
        }
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={`mfa-${kind}-password`}>
          {t("card.current_password")}
        </Label>
        <Input
          id={`mfa-${kind}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={wrong ? true : undefined}
        />
        {needsStepUp(action.error) ? (
          <StepUpPrompt />
        ) : (
          <FormError
            error={action.error}
            messageKey={
              isApiError(action.error) && action.error.status === 409
                ? "mfa:card.policy_keeps"
                : undefined
            }
          />
        )}
      </div>
    </ConfirmationDialog>
  );
}
