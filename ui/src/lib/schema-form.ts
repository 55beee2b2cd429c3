import { useRef, useState, type FormEvent } from 'react'
import * as v from 'valibot'
import type { UseFormSetError } from 'react-hook-form'

type Values = Record<string, string>

export interface SchemaFieldError {
  type: string
  message?: string
}

/**
 * The part of react-hook-form's `useForm({ resolver: valibotResolver(schema) })`
 * that the sign-in form uses, without react-hook-form: that library is 14 KB
 * gzip, a tenth of the JavaScript budget of /signin (README, "Bundle budget").
 * Same rules as useForm with its default options, for flat text fields:
 * - nothing is validated before the first submit;
 * - a submit validates every field (the first issue of each is its error) and
 *   focuses the first invalid field (in the order of `defaultValues`, which is
 *   the order of the form, as react-hook-form's registration order), or calls `onValid`
 *   with the schema's output (trimmed values and all) after clearing the errors;
 * - once submitted, a change re-validates the form and updates that field's
 *   error only (so an error set by the server goes once the value is valid);
 * - `setError` sets an error, focusing the field on `{ shouldFocus: true }`.
 */
export function useSchemaForm<TSchema extends v.GenericSchema<Values, Values>>(
  schema: TSchema,
  defaultValues: v.InferInput<TSchema>,
) {
  type Name = keyof v.InferInput<TSchema> & string
  const [errors, setErrors] = useState<Partial<Record<Name, SchemaFieldError>>>({})
  const fields = useRef(new Map<Name, HTMLInputElement>())
  const submitted = useRef(false)

  function validate() {
    const values: Values = { ...defaultValues }
    for (const [name, input] of fields.current) values[name] = input.value
    const result = v.safeParse(schema, values, { abortPipeEarly: true })
    const found: Partial<Record<Name, SchemaFieldError>> = {}
    for (const issue of result.issues ?? []) {
      const name = (v.getDotPath(issue) ?? '') as Name
      found[name] ??= { type: issue.type, message: issue.message }
    }
    return { output: result.success ? result.output : undefined, errors: found }
  }

  function register(name: Name) {
    return {
      name,
      defaultValue: defaultValues[name],
      ref: (input: HTMLInputElement | null) => {
        if (input) fields.current.set(name, input)
        else fields.current.delete(name)
      },
      onChange: () => {
        if (!submitted.current) return
        const error = validate().errors[name]
        setErrors((current) => {
          const next = { ...current }
          if (error) next[name] = error
          else delete next[name]
          return next
        })
      },
    }
  }

  function handleSubmit(onValid: (values: v.InferOutput<TSchema>) => unknown) {
    return async (event?: FormEvent) => {
      event?.preventDefault()
      submitted.current = true
      const { output, errors: found } = validate()
      setErrors(found)
      if (output === undefined) {
        const first = (Object.keys(defaultValues) as Name[]).find((name) => found[name])
        if (first) fields.current.get(first)?.focus()
        return
      }
      await onValid(output)
    }
  }

  const setError: UseFormSetError<v.InferInput<TSchema>> = (name, error, options) => {
    const field = name as Name
    setErrors((current) => ({ ...current, [field]: { type: String(error.type ?? ''), message: error.message } }))
    if (options?.shouldFocus) fields.current.get(field)?.focus()
  }

  return { register, handleSubmit, setError, formState: { errors } }
}
